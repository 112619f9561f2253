/// The results of an execution that delivers incrementally (the incremental
/// delivery RFC, in graphql-js 17's shape): an initial result with
/// `pending` and `hasNext`, then subsequent results, each with what became
/// pending, what was delivered (`incremental`) and what finished (`completed`).

/// A deferred fragment or stream announced: its id, where it is, its label.
public struct PendingResult: Sendable, Equatable {
    public var id: String
    public var path: [PathComponent]
    public var label: String?

    public func write(to writer: inout JSONWriter) {
        writer.raw("{\"id\":")
        writer.string(id)
        writer.raw(",\"path\":")
        writer.path(path)
        if let label {
            writer.raw(",\"label\":")
            writer.string(label)
        }
        writer.raw("}")
    }
}

/// Data delivered: a deferred group's fields (`data`, at the pending
/// path and `subPath`) or a stream's items.
public struct IncrementalResult: Sendable {
    public enum Payload: Sendable {
        case data(subPath: [PathComponent]?)
        case items
    }

    public var id: String
    public var payload: Payload
    /// The data object or the items list, as JSON.
    let json: WrittenJSON
    public var errors: [GraphQLError]

    /// graphql-js 17's order: the data or items, errors, id, subPath.
    public func write(to writer: inout JSONWriter) {
        switch payload {
        case .data: writer.raw("{\"data\":")
        case .items: writer.raw("{\"items\":")
        }
        json.writer.withBytes { writer.append($0) }
        if !errors.isEmpty {
            writer.raw(",\"errors\":")
            writer.errors(errors)
        }
        writer.raw(",\"id\":")
        writer.string(id)
        if case .data(let subPath?) = payload {
            writer.raw(",\"subPath\":")
            writer.path(subPath)
        }
        writer.raw("}")
    }
}

/// A deferred fragment or stream finished: with `errors` when it failed
/// (a non-null field or item failed up to its root) and delivers no more.
public struct CompletedResult: Sendable {
    public var id: String
    public var errors: [GraphQLError]?

    public func write(to writer: inout JSONWriter) {
        writer.raw("{\"id\":")
        writer.string(id)
        if let errors {
            writer.raw(",\"errors\":")
            writer.errors(errors)
        }
        writer.raw("}")
    }
}

/// One result after the initial one.
public struct SubsequentResult: Sendable {
    public var pending: [PendingResult] = []
    public var incremental: [IncrementalResult] = []
    public var completed: [CompletedResult] = []
    public var hasNext: Bool

    /// graphql-js 17's order: hasNext, pending, incremental, completed.
    public func write(to writer: inout JSONWriter) {
        writer.raw(hasNext ? "{\"hasNext\":true" : "{\"hasNext\":false")
        if !pending.isEmpty {
            writer.raw(",\"pending\":")
            writer.list(pending) { $0.write(to: &$1) }
        }
        if !incremental.isEmpty {
            writer.raw(",\"incremental\":")
            writer.list(incremental) { $0.write(to: &$1) }
        }
        if !completed.isEmpty {
            writer.raw(",\"completed\":")
            writer.list(completed) { $0.write(to: &$1) }
        }
        writer.raw("}")
    }

    public func json() -> String {
        var writer = JSONWriter(capacity: 256)
        write(to: &writer)
        return writer.text
    }
}
