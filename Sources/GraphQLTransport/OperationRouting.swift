import GraphQL

/// A context whose operations may read from somewhere other than where
/// they write (issue 40: reads on streaming replicas). The transports tell
/// it each operation's type before it runs, and the end of each mutation
/// after it ran, on HTTP and WebSocket alike.
public protocol OperationRouting: Sendable {
    /// The context to run an operation of `type` with. `readAfter` is what
    /// the client says its reads must see (the `Huddle-Read-After` header,
    /// a token an earlier mutation's response gave it), if anything.
    func routed(for type: OperationType, readAfter: String?) async -> any Sendable

    /// Called once a mutation has run: an opaque token for what a later
    /// read must see, given to the client as the response's
    /// `extensions.readAfter` (nil: nothing to give). `cutShort`: the
    /// operation was stopped (a limit, its client gone) while its
    /// resolvers may still be writing.
    func mutationEnded(cutShort: Bool) async -> String?

    /// The context to run a query again with when this context's reads
    /// failed where the primary's may not (the standby it read went away,
    /// or cancelled a statement in conflict with its replay); nil to keep
    /// the result. A query writes nothing, so running it again is safe.
    func fallback(after result: ExecutionResult) -> (any Sendable)?
}

extension ExecutionResult {
    /// The codes of a limit that stops an operation while its waiting work
    /// goes on (what it already started is not cancelled).
    static let stopCodes: Set<String> = ["RESPONSE_TOO_LARGE", "MEMORY_LIMIT_EXCEEDED", "OPERATION_TIMEOUT"]

    /// Stopped short: by a limit, or its task cancelled (the client gone).
    var wasCutShort: Bool {
        Task.isCancelled || errors.contains { Self.stopCodes.contains($0.code ?? "") }
    }

    /// The result with the token a mutation's end gave (`OperationRouting`).
    mutating func addReadAfter(_ token: String?) {
        guard let token else { return }
        extensions.append(.init("readAfter", .string(token)))
    }
}
