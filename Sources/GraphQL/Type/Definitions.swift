/// The type system (spec §3): named types, the list and non-null wrappers,
/// fields, arguments, input fields, enum values.
///
/// Named types are classes because the type graph has cycles (a User's
/// friends are Users). They are filled in while a schema is built and never
/// changed afterwards, which is what makes sharing them across threads safe.

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
    public let kind: TypeKind
    public internal(set) var description: String?
    /// Object and interface fields, in definition order.
    public internal(set) var fields: [GraphQLField] = [] {
        didSet { fieldIndex = Dictionary(fields.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first }) }
    }
    /// Interfaces an object or interface type implements.
    public internal(set) var interfaces: [GraphQLNamedType] = []
    /// A union's member types.
    public internal(set) var unionMembers: [GraphQLNamedType] = []
    public internal(set) var enumValues: [GraphQLEnumValue] = []
    /// Input object fields, in definition order.
    public internal(set) var inputFields: [GraphQLInputValue] = [] {
        didSet {
            inputFieldIndex = Dictionary(inputFields.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }
    public internal(set) var specifiedByURL: String?
    /// An input object marked `@oneOf`: exactly one field must be given.
    public internal(set) var isOneOf = false
    /// The definition this type was built from, and its extensions.
    public internal(set) var definition: TypeDefinition?
    public internal(set) var extensions: [TypeExtension] = []
    /// The sources of `definition` and of each extension, for error locations.
    public internal(set) var definitionSource: Source?
    public internal(set) var extensionSources: [Source] = []

    private var fieldIndex: [String: Int] = [:]
    private var inputFieldIndex: [String: Int] = [:]

    init(name: String, kind: TypeKind, description: String? = nil) {
        self.name = name
        self.kind = kind
        self.description = description
    }

    public func field(named name: String) -> GraphQLField? {
        fieldIndex[name].map { fields[$0] }
    }

    public func inputField(named name: String) -> GraphQLInputValue? {
        inputFieldIndex[name].map { inputFields[$0] }
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
public indirect enum GraphQLType: Sendable, Hashable, CustomStringConvertible {
    case named(GraphQLNamedType)
    case list(GraphQLType)
    case nonNull(GraphQLType)

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

/// A field of an object or interface type.
public struct GraphQLField: Sendable {
    public var name: String
    public var description: String?
    public var type: GraphQLType
    public var arguments: [GraphQLInputValue]
    public var deprecationReason: String?
    public var definition: FieldDefinition?
    /// The source `definition` was parsed from.
    public var source: Source?

    public func argument(named name: String) -> GraphQLInputValue? {
        arguments.first { $0.name == name }
    }
}

/// An argument of a field or directive, or a field of an input object.
public struct GraphQLInputValue: Sendable {
    public var name: String
    public var description: String?
    public var type: GraphQLType
    /// The default value, already coerced to `type`; nil when there is none
    /// (or when the literal in the SDL does not fit the type, as graphql-js has it).
    public var defaultValue: GraphQLValue?
    public var deprecationReason: String?
    public var definition: InputValueDefinition?
    /// The source `definition` was parsed from.
    public var source: Source?

    /// Required: non-null with no default value.
    public var isRequired: Bool { type.isNonNull && defaultValue == nil }
}

public struct GraphQLEnumValue: Sendable {
    public var name: String
    public var description: String?
    public var deprecationReason: String?
    public var definition: EnumValueDefinition?
    /// The source `definition` was parsed from.
    public var source: Source?
}

public struct GraphQLDirective: Sendable {
    public var name: String
    public var description: String?
    public var locations: [DirectiveLocation]
    public var arguments: [GraphQLInputValue]
    public var isRepeatable: Bool
    public var definition: DirectiveDefinition?
    /// The source `definition` was parsed from.
    public var source: Source?

    public func argument(named name: String) -> GraphQLInputValue? {
        arguments.first { $0.name == name }
    }
}
