/// The result of executing an operation: the data (absent when a request
/// error stopped execution before it began) and the errors, in the order
/// they happened.
public struct ExecutionResult: Sendable {
    public var errors: [GraphQLError]
    private var storage: Storage

    /// Executions keep the tree they built and write JSON straight from it;
    /// `data` converts it only when asked.
    private enum Storage: @unchecked Sendable {
        case none
        case value(ResponseValue)
        /// Built by one execution and never changed after it returned.
        case tree(ResultContainer?)
    }

    public init(data: ResponseValue?, errors: [GraphQLError]) {
        self.errors = errors
        storage = data.map(Storage.value) ?? .none
    }

    init(tree: ResultContainer?, errors: [GraphQLError]) {
        self.errors = errors
        storage = .tree(tree)
    }

    /// The data: nil when a request error kept execution from starting.
    public var data: ResponseValue? {
        switch storage {
        case .none: nil
        case .value(let value): value
        case .tree(let tree): tree?.response ?? .null
        }
    }

    /// Whether execution started: false for a request error.
    public var hasData: Bool {
        if case .none = storage { return false }
        return true
    }

    /// The response as JSON, keys in graphql-js's order: `errors` (when
    /// there are any) before `data`.
    public func json() -> String {
        var writer = JSONWriter()
        write(to: &writer)
        return writer.text
    }

    public func write(to writer: inout JSONWriter) {
        writer.raw("{")
        if !errors.isEmpty {
            writer.raw("\"errors\":[")
            for (index, error) in errors.enumerated() {
                if index > 0 { writer.raw(",") }
                error.write(to: &writer)
            }
            writer.raw("]")
            if hasData { writer.raw(",") }
        }
        switch storage {
        case .none:
            break
        case .value(let value):
            writer.raw("\"data\":")
            value.write(to: &writer)
        case .tree(let tree):
            writer.raw("\"data\":")
            if let tree { tree.write(to: &writer) } else { writer.null() }
        }
        writer.raw("}")
    }
}

extension ResultContainer {
    /// Writes the tree as JSON without building a ResponseValue first.
    func write(to writer: inout JSONWriter) {
        if isNull { return writer.null() }
        let isList = isList
        writer.byte(isList ? 0x5B : 0x7B)
        var first = true
        fields.withUnsafeBufferPointer { fields in
            slots.withUnsafeBufferPointer { slots in
                for index in slots.indices {
                    if case .omitted = slots[index] { continue }
                    if !first { writer.byte(0x2C) }
                    first = false
                    if !isList { writer.append(fields[index].jsonKey) }
                    switch slots[index] {
                    case .null, .pending, .omitted: writer.null()
                    case .leaf(let value): writer.value(value)
                    case .container(let container): container.write(to: &writer)
                    }
                }
            }
        }
        writer.byte(isList ? 0x5D : 0x7D)
    }
}

/// A response value, members in selection order.
public indirect enum ResponseValue: Sendable, Equatable {
    case null
    case leaf(GraphQLValue)
    case object([Member])
    case list([ResponseValue])

    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: ResponseValue
    }

    public func write(to writer: inout JSONWriter) {
        switch self {
        case .null:
            writer.null()
        case .leaf(let value):
            writer.value(value)
        case .object(let members):
            writer.raw("{")
            for (index, member) in members.enumerated() {
                if index > 0 { writer.raw(",") }
                writer.string(member.key)
                writer.raw(":")
                member.value.write(to: &writer)
            }
            writer.raw("}")
        case .list(let items):
            writer.raw("[")
            for (index, item) in items.enumerated() {
                if index > 0 { writer.raw(",") }
                item.write(to: &writer)
            }
            writer.raw("]")
        }
    }

    public var json: String {
        var writer = JSONWriter(capacity: 256)
        write(to: &writer)
        return writer.text
    }
}

extension GraphQLError {
    /// `{"message":…,"locations":[…],"path":[…],"extensions":{…}}`, as graphql-js's toJSON.
    public func write(to writer: inout JSONWriter) {
        writer.raw("{\"message\":")
        writer.string(message)
        if !locations.isEmpty {
            writer.raw(",\"locations\":[")
            for (index, location) in locations.enumerated() {
                if index > 0 { writer.raw(",") }
                writer.raw("{\"line\":")
                writer.int(location.line)
                writer.raw(",\"column\":")
                writer.int(location.column)
                writer.raw("}")
            }
            writer.raw("]")
        }
        if let path {
            writer.raw(",\"path\":[")
            for (index, component) in path.enumerated() {
                if index > 0 { writer.raw(",") }
                switch component {
                case .key(let key): writer.string(key)
                case .index(let position): writer.int(position)
                }
            }
            writer.raw("]")
        }
        if !extensions.isEmpty {
            writer.raw(",\"extensions\":")
            writer.value(.object(extensions))
        }
        writer.raw("}")
    }

    public var json: String {
        var writer = JSONWriter(capacity: 128)
        write(to: &writer)
        return writer.text
    }
}
