/// The type system (spec §3): named types, the list and non-null wrappers,
/// fields, arguments, input fields, enum values.
///
/// Named types are classes because the type graph has cycles (a User's
/// friends are Users). They are filled in while a schema is built and never
/// changed afterwards, which is what makes sharing them across threads safe:
/// `GraphQLSchema` seals them when it is made, and in debug builds a change
/// after that stops the run.

/// Whether the schema holding a type-system object has been made: the
/// engine shares it between threads from then on, unlocked, so a change
/// after would race with their reads; debug builds stop at one. In release
/// builds it holds nothing and checks nothing.
struct Sealing {
    #if DEBUG
        private var isSealed = false
    #endif

    mutating func seal() {
        #if DEBUG
            isSealed = true
        #endif
    }

    @inline(__always) func assertUnsealed(_ owner: Any.Type) {
        #if DEBUG
            assert(!isSealed, "\(owner) changed after its schema was made")
        #endif
    }
}

public enum TypeKind: String, Sendable, Hashable {
    case scalar = "SCALAR"
    case object = "OBJECT"
    case interface = "INTERFACE"
    case union = "UNION"
    case `enum` = "ENUM"
    case inputObject = "INPUT_OBJECT"
}

public final class GraphQLNamedType: @unchecked Sendable, Hashable {
    public let name: String

    private var sealing = Sealing()
    @inline(__always) private func assertUnsealed() { sealing.assertUnsealed(Self.self) }

    /// Seals it and its fields, arguments, input fields and enum values.
    func seal() {
        sealing.seal()
        #if DEBUG
            for field in fields { field.seal() }
            for value in inputFields { value.seal() }
            for value in enumValues { value.seal() }
        #endif
    }
    public let kind: TypeKind
    public internal(set) var description: String? { didSet { assertUnsealed() } }
    /// Object and interface fields, in definition order.
    public internal(set) var fields: [GraphQLField] = [] {
        didSet {
            assertUnsealed()
            fieldIndex = NameTable(fields.enumerated().lazy.map { ($1.name, $0) })
        }
    }
    /// Interfaces an object or interface type implements.
    public internal(set) var interfaces: [GraphQLNamedType] = [] { didSet { assertUnsealed() } }
    /// A union's member types.
    public internal(set) var unionMembers: [GraphQLNamedType] = [] { didSet { assertUnsealed() } }
    public internal(set) var enumValues: [GraphQLEnumValue] = [] { didSet { assertUnsealed() } }
    /// A custom scalar's coercion, once an executable schema registers one
    /// (which it does before it is shared, so this one is not sealed).
    public internal(set) var scalarCoercion: ScalarCoercion?
    /// Input object fields, in definition order.
    public internal(set) var inputFields: [GraphQLInputValue] = [] {
        didSet {
            assertUnsealed()
            inputFieldIndex = NameTable(inputFields.enumerated().lazy.map { ($1.name, $0) })
        }
    }
    public internal(set) var specifiedByURL: String? { didSet { assertUnsealed() } }
    /// An input object marked `@oneOf`: exactly one field must be given.
    public internal(set) var isOneOf = false { didSet { assertUnsealed() } }
    /// The definition this type was built from, and its extensions.
    public internal(set) var definition: TypeDefinition? { didSet { assertUnsealed() } }
    public internal(set) var extensions: [TypeExtension] = [] { didSet { assertUnsealed() } }
    /// The sources of `definition` and of each extension, for error locations.
    public internal(set) var definitionSource: Source? { didSet { assertUnsealed() } }
    public internal(set) var extensionSources: [Source] = [] { didSet { assertUnsealed() } }

    private var fieldIndex = NameTable<Int>()
    private var inputFieldIndex = NameTable<Int>()

    init(name: String, kind: TypeKind, description: String? = nil) {
        self.name = name
        self.kind = kind
        self.description = description
    }

    /// Below this many members a scan beats hashing the name.
    private static let scanLimit = 16

    public func field(named name: String) -> GraphQLField? {
        if fields.count <= Self.scanLimit {
            for field in fields where haveSameUTF8(field.name, name) { return field }
            return nil
        }
        return fieldIndex[name].map { fields[$0] }
    }

    public func inputField(named name: String) -> GraphQLInputValue? {
        if inputFields.count <= Self.scanLimit {
            for field in inputFields where haveSameUTF8(field.name, name) { return field }
            return nil
        }
        return inputFieldIndex[name].map { inputFields[$0] }
    }

    public func enumValue(named name: String) -> GraphQLEnumValue? {
        enumValues.first { $0.name == name }
    }

    public var isInputType: Bool { kind == .scalar || kind == .enum || kind == .inputObject }
    public var isOutputType: Bool { kind != .inputObject }
    public var isLeafType: Bool { kind == .scalar || kind == .enum }
    public var isCompositeType: Bool { kind == .object || kind == .interface || kind == .union }
    public var isAbstractType: Bool { kind == .interface || kind == .union }

    public static func == (lhs: GraphQLNamedType, rhs: GraphQLNamedType) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// A type as fields, arguments and variables refer to it: a named type,
/// possibly wrapped in lists and non-null markers.
///
/// Only the wrappers are boxed: a named type is one reference already, and
/// every type ends in one, so boxing it too cost an allocation to make and
/// a box to read through for every type reference.
public enum GraphQLType: Sendable, Hashable, CustomStringConvertible {
    case named(GraphQLNamedType)
    indirect case list(GraphQLType)
    indirect case nonNull(GraphQLType)

    /// The named type inside every wrapper.
    public var namedType: GraphQLNamedType {
        switch self {
        case .named(let type): type
        case .list(let inner), .nonNull(let inner): inner.namedType
        }
    }

    public var isNonNull: Bool {
        if case .nonNull = self { return true }
        return false
    }

    /// Whether it is a list, maybe non-null.
    public var isList: Bool {
        if case .list = nullableType { return true }
        return false
    }

    /// The type without its outermost non-null marker.
    public var nullableType: GraphQLType {
        if case .nonNull(let inner) = self { return inner }
        return self
    }

    public var isInputType: Bool { namedType.isInputType }
    public var isOutputType: Bool { namedType.isOutputType }

    /// The type as written in GraphQL: `[String!]!`.
    public var description: String {
        switch self {
        case .named(let type): type.name
        case .list(let inner): "[\(inner)]"
        case .nonNull(let inner): "\(inner)!"
        }
    }
}

// Fields, arguments, enum values and directives are classes too: validation
// and execution pass them around constantly, and a reference costs one
// retain where a struct of strings and arrays costs a dozen.

/// A field of an object or interface type.
public final class GraphQLField: @unchecked Sendable {
    public let name: String

    private var sealing = Sealing()
    @inline(__always) private func assertUnsealed() { sealing.assertUnsealed(Self.self) }

    /// Seals it and its arguments.
    func seal() {
        sealing.seal()
        #if DEBUG
            for argument in arguments { argument.seal() }
        #endif
    }
    public internal(set) var description: String? { didSet { assertUnsealed() } }
    public internal(set) var type: GraphQLType { didSet { assertUnsealed() } }
    public internal(set) var arguments: [GraphQLInputValue] { didSet { assertUnsealed() } }
    public internal(set) var deprecationReason: String? { didSet { assertUnsealed() } }
    public internal(set) var definition: FieldDefinition? { didSet { assertUnsealed() } }
    /// The source `definition` was parsed from.
    public internal(set) var source: Source? { didSet { assertUnsealed() } }

    init(
        name: String, description: String? = nil, type: GraphQLType, arguments: [GraphQLInputValue] = [],
        deprecationReason: String? = nil, definition: FieldDefinition? = nil, source: Source? = nil
    ) {
        self.name = name
        self.description = description
        self.type = type
        self.arguments = arguments
        self.deprecationReason = deprecationReason
        self.definition = definition
        self.source = source
    }

    public func argument(named name: String) -> GraphQLInputValue? {
        arguments.first { $0.name == name }
    }
}

/// An argument of a field or directive, or a field of an input object.
public final class GraphQLInputValue: @unchecked Sendable {
    public let name: String

    private var sealing = Sealing()
    @inline(__always) private func assertUnsealed() { sealing.assertUnsealed(Self.self) }

    /// Seals it.
    func seal() {
        sealing.seal()
    }
    public internal(set) var description: String? { didSet { assertUnsealed() } }
    public internal(set) var type: GraphQLType { didSet { assertUnsealed() } }
    /// The default value, already coerced to `type`; nil when there is none
    /// (or when the literal in the SDL does not fit the type, as graphql-js has it).
    public internal(set) var defaultValue: GraphQLValue? { didSet { assertUnsealed() } }
    public internal(set) var deprecationReason: String? { didSet { assertUnsealed() } }
    public internal(set) var definition: InputValueDefinition? { didSet { assertUnsealed() } }
    /// The source `definition` was parsed from.
    public internal(set) var source: Source? { didSet { assertUnsealed() } }

    init(
        name: String, description: String? = nil, type: GraphQLType, defaultValue: GraphQLValue? = nil,
        deprecationReason: String? = nil, definition: InputValueDefinition? = nil, source: Source? = nil
    ) {
        self.name = name
        self.description = description
        self.type = type
        self.defaultValue = defaultValue
        self.deprecationReason = deprecationReason
        self.definition = definition
        self.source = source
    }

    /// Required: non-null with no default value.
    public var isRequired: Bool { type.isNonNull && defaultValue == nil }
}

public final class GraphQLEnumValue: @unchecked Sendable {
    public let name: String

    private var sealing = Sealing()
    @inline(__always) private func assertUnsealed() { sealing.assertUnsealed(Self.self) }

    /// Seals it.
    func seal() {
        sealing.seal()
    }
    public internal(set) var description: String? { didSet { assertUnsealed() } }
    public internal(set) var deprecationReason: String? { didSet { assertUnsealed() } }
    public internal(set) var definition: EnumValueDefinition? { didSet { assertUnsealed() } }
    /// The source `definition` was parsed from.
    public internal(set) var source: Source? { didSet { assertUnsealed() } }

    init(
        name: String, description: String? = nil, deprecationReason: String? = nil,
        definition: EnumValueDefinition? = nil, source: Source? = nil
    ) {
        self.name = name
        self.description = description
        self.deprecationReason = deprecationReason
        self.definition = definition
        self.source = source
    }
}

public final class GraphQLDirective: @unchecked Sendable {
    public let name: String

    private var sealing = Sealing()
    @inline(__always) private func assertUnsealed() { sealing.assertUnsealed(Self.self) }

    /// Seals it and its arguments.
    func seal() {
        sealing.seal()
        #if DEBUG
            for argument in arguments { argument.seal() }
        #endif
    }
    public internal(set) var description: String? { didSet { assertUnsealed() } }
    public internal(set) var locations: [DirectiveLocation] { didSet { assertUnsealed() } }
    public internal(set) var arguments: [GraphQLInputValue] { didSet { assertUnsealed() } }
    public internal(set) var isRepeatable: Bool { didSet { assertUnsealed() } }
    public internal(set) var definition: DirectiveDefinition? { didSet { assertUnsealed() } }
    /// The source `definition` was parsed from.
    public internal(set) var source: Source? { didSet { assertUnsealed() } }

    init(
        name: String, description: String? = nil, locations: [DirectiveLocation], arguments: [GraphQLInputValue] = [],
        isRepeatable: Bool = false, definition: DirectiveDefinition? = nil, source: Source? = nil
    ) {
        self.name = name
        self.description = description
        self.locations = locations
        self.arguments = arguments
        self.isRepeatable = isRepeatable
        self.definition = definition
        self.source = source
    }

    public func argument(named name: String) -> GraphQLInputValue? {
        arguments.first { $0.name == name }
    }
}
