/// The result of executing an operation: the data (absent when a request
/// error stopped execution before it began) and the errors, in the order
/// they happened.
public struct ExecutionResult: Sendable {
    public var errors: [GraphQLError] {
        didSet { encoded = nil }
    }
    private var storage: Storage
    /// What the operation was measured to ask for, when the limits measured it.
    public var cost: OperationCost?
    /// The response's `extensions`, written after `data` when not empty.
    public var extensions: [GraphQLValue.Member] = [] {
        didSet { encoded = nil }
    }
    /// For the initial result of an incremental delivery: the deferred
    /// fragments and streams to come, and `hasNext` (true); nil otherwise.
    public var pending: [PendingResult]? {
        didSet { encoded = nil }
    }
    /// The response's JSON, for a result written once and sent to many
    /// (`encodedForSharing`); nil for any other, and once the result changes.
    public private(set) var encoded: [UInt8]?

    private enum Storage: Sendable {
        case none
        case value(ResponseValue)
        /// The data as the execution wrote it: JSON, or nil when it became null.
        case json(WrittenJSON?)
    }

    public init(data: ResponseValue?, errors: [GraphQLError]) {
        self.errors = errors
        storage = data.map(Storage.value) ?? .none
    }

    init(json: WrittenJSON?, errors: [GraphQLError]) {
        self.errors = errors
        storage = .json(json)
    }

    /// About how many bytes holding this result keeps alive: the buffer of
    /// its written JSON (its capacity, not only what was written), the
    /// whole response written once, and its errors. The response's array is
    /// counted by what it holds: its capacity is what malloc handed over,
    /// which differs from one allocation to the next, and a bound counted
    /// with it would hold a different number of results from run to run.
    var heldJSONBytes: Int {
        let errorBytes = errors.reduce(0) { $0 + 128 + $1.message.utf8.count }
        let encodedBytes = encoded?.count ?? 0
        guard case .json(let json?) = storage else { return 256 + errorBytes + encodedBytes }
        return json.writer.capacity + errorBytes + encodedBytes
    }

    /// The same result with its JSON in a buffer of its own size, for
    /// holding a while (an execution's buffer may be far larger than what
    /// it wrote), and the whole response written once (`encoded`), for
    /// the many subscribers it is sent to.
    func encodedForSharing() -> ExecutionResult {
        var copy = self
        if case .json(let json?) = storage, json.writer.capacity > json.writer.count + 256 {
            var writer = JSONWriter(capacity: json.writer.count)
            json.writer.withBytes { writer.append($0) }
            copy.storage = .json(WrittenJSON(writer))
        }
        var writer = JSONWriter()
        copy.write(to: &writer)
        copy.encoded = writer.bytes
        return copy
    }

    /// The data: nil when a request error kept execution from starting.
    /// Executions write JSON as they go; this reads it back (enum values come
    /// back as strings), for callers that inspect the data rather than send it.
    public var data: ResponseValue? {
        switch storage {
        case .none: nil
        case .value(let value): value
        case .json(nil): .null
        case .json(let written?):
            written.writer.withBytes { buffer in
                (try? JSONReader(maxDepth: .max).read(buffer)).map(ResponseValue.init) ?? .null
            }
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
        if let encoded { return writer.append(encoded) }
        writer.raw("{")
        if !errors.isEmpty {
            writer.raw("\"errors\":")
            writer.errors(errors)
            if hasData { writer.raw(",") }
        }
        switch storage {
        case .none:
            break
        case .value(let value):
            writer.raw("\"data\":")
            value.write(to: &writer)
        case .json(let bytes):
            writer.raw("\"data\":")
            if let bytes { bytes.writer.withBytes { writer.append($0) } } else { writer.null() }
        }
        if let pending {
            writer.raw(",\"pending\":")
            writer.list(pending) { $0.write(to: &$1) }
            writer.raw(",\"hasNext\":true")
        }
        if !extensions.isEmpty {
            if hasData || !errors.isEmpty { writer.raw(",") }
            writer.raw("\"extensions\":")
            writer.value(.object(extensions))
        }
        writer.raw("}")
    }
}

/// The JSON an execution wrote, handed over without a copy and never changed after.
final class WrittenJSON: @unchecked Sendable {
    let writer: JSONWriter

    init(_ writer: consuming JSONWriter) {
        self.writer = writer
    }
}

extension ResponseValue {
    /// A JSON value read back: objects and lists as such, everything else a leaf.
    init(_ value: GraphQLValue) {
        switch value {
        case .null: self = .null
        case .object(let members): self = .object(members.map { Member(key: $0.name, value: ResponseValue($0.value)) })
        case .list(let items): self = .list(items.map(ResponseValue.init))
        default: self = .leaf(value)
        }
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
            writer.raw(",\"path\":")
            writer.path(path)
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

extension JSONWriter {
    /// A response path: keys as strings, list indices as numbers.
    mutating func path(_ path: [PathComponent]) {
        list(path) { component, writer in
            switch component {
            case .key(let key): writer.string(key)
            case .index(let position): writer.int(position)
            }
        }
    }

    /// Errors as a response's `errors` list has them.
    public mutating func errors(_ errors: [GraphQLError]) {
        list(errors) { $0.write(to: &$1) }
    }
}
