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
    /// `extensions.readAfter` (nil: nothing to give).
    func mutationEnded() async -> String?
}

extension ExecutionResult {
    /// The result with the token a mutation's end gave (`OperationRouting`).
    mutating func addReadAfter(_ token: String?) {
        guard let token else { return }
        extensions.append(.init("readAfter", .string(token)))
    }
}
