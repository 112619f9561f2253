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

    /// The data or the items, read back.
    public var value: ResponseValue {
        json.writer.withBytes { (try? JSONReader(maxDepth: .max).read($0)).map(ResponseValue.init) ?? .null }
    }

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
            writer.raw(",\"pending\":[")
            for (index, entry) in pending.enumerated() {
                if index > 0 { writer.raw(",") }
                entry.write(to: &writer)
            }
            writer.raw("]")
        }
        if !incremental.isEmpty {
            writer.raw(",\"incremental\":[")
            for (index, entry) in incremental.enumerated() {
                if index > 0 { writer.raw(",") }
                entry.write(to: &writer)
            }
            writer.raw("]")
        }
        if !completed.isEmpty {
            writer.raw(",\"completed\":[")
            for (index, entry) in completed.enumerated() {
                if index > 0 { writer.raw(",") }
                entry.write(to: &writer)
            }
            writer.raw("]")
        }
        writer.raw("}")
    }

    public func json() -> String {
        var writer = JSONWriter(capacity: 256)
        write(to: &writer)
        return writer.text
    }
}

extension JSONWriter {
    mutating func path(_ path: [PathComponent]) {
        raw("[")
        for (index, component) in path.enumerated() {
            if index > 0 { raw(",") }
            switch component {
            case .key(let key): string(key)
            case .index(let position): int(position)
            }
        }
        raw("]")
    }

    mutating func errors(_ errors: [GraphQLError]) {
        raw("[")
        for (index, error) in errors.enumerated() {
            if index > 0 { raw(",") }
            error.write(to: &self)
        }
        raw("]")
    }
}
