/// The abstract syntax tree of a GraphQL document (spec §2 and §3), one type
/// per grammar production. Every node records the byte range it was parsed
/// from; names are small Swift strings, not copies of the whole source.

/// The byte range a node spans in its source, from its first token's start
/// to its last token's end.
public struct Location: Sendable, Hashable {
    // 32-bit offsets keep every node small; sources are far below 4 GiB.
    private let startOffset: UInt32
    private let endOffset: UInt32

    public var start: Int { Int(startOffset) }
    public var end: Int { Int(endOffset) }

    public init(start: Int, end: Int) {
        startOffset = UInt32(truncatingIfNeeded: start)
        endOffset = UInt32(truncatingIfNeeded: end)
    }

    /// The location of nodes parsed with `ParseOptions.recordsLocations` off.
    public static let none = Location(start: 0, end: 0)
}

public struct Name: Sendable, Hashable {
    public var value: String
    public var location: Location

    public init(_ value: String, location: Location = .none) {
        self.value = value
        self.location = location
    }
}

public struct Document: Sendable, Hashable {
    public var definitions: [Definition]
    public var location: Location

    public init(definitions: [Definition], location: Location = .none) {
        self.definitions = definitions
        self.location = location
    }
}

public enum Definition: Sendable, Hashable {
    case operation(OperationDefinition)
    case fragment(FragmentDefinition)
    case schema(SchemaDefinition)
    case type(TypeDefinition)
    case directive(DirectiveDefinition)
    case schemaExtension(SchemaExtension)
    case typeExtension(TypeExtension)

    public var location: Location {
        switch self {
        case .operation(let node): node.location
        case .fragment(let node): node.location
        case .schema(let node): node.location
        case .type(let node): node.location
        case .directive(let node): node.location
        case .schemaExtension(let node): node.location
        case .typeExtension(let node): node.location
        }
    }
}

// MARK: - Executable definitions

public enum OperationType: String, Sendable, Hashable {
    case query
    case mutation
    case subscription
}

public struct OperationDefinition: Sendable, Hashable {
    public var description: StringValue?
    public var operation: OperationType
    public var name: Name?
    public var variableDefinitions: [VariableDefinition]
    public var directives: [Directive]
    public var selectionSet: SelectionSet
    public var location: Location

    public init(
        description: StringValue? = nil, operation: OperationType, name: Name? = nil,
        variableDefinitions: [VariableDefinition] = [], directives: [Directive] = [],
        selectionSet: SelectionSet, location: Location = .none
    ) {
        self.description = description
        self.operation = operation
        self.name = name
        self.variableDefinitions = variableDefinitions
        self.directives = directives
        self.selectionSet = selectionSet
        self.location = location
    }
}

public struct VariableDefinition: Sendable, Hashable {
    public var description: StringValue?
    public var variable: Variable
    public var type: TypeReference
    public var defaultValue: Value?
    public var directives: [Directive]
    public var location: Location
}

public struct Variable: Sendable, Hashable {
    public var name: Name
    public var location: Location
}

public struct SelectionSet: Sendable, Hashable {
    public var selections: [Selection]
    public var location: Location

    public init(selections: [Selection], location: Location = .none) {
        self.selections = selections
        self.location = location
    }
}

public enum Selection: Sendable, Hashable {
    case field(Field)
    case fragmentSpread(FragmentSpread)
    case inlineFragment(InlineFragment)

    public var location: Location {
        switch self {
        case .field(let node): node.location
        case .fragmentSpread(let node): node.location
        case .inlineFragment(let node): node.location
        }
    }
}

public struct Field: Sendable, Hashable {
    public var alias: Name?
    public var name: Name
    public var arguments: [Argument]
    public var directives: [Directive]
    public var selectionSet: SelectionSet?
    public var location: Location

    /// The key this field's value has in the response: its alias, else its name.
    public var responseKey: String { alias?.value ?? name.value }
}

public struct Argument: Sendable, Hashable {
    public var name: Name
    public var value: Value
    public var location: Location
}

public struct FragmentSpread: Sendable, Hashable {
    public var name: Name
    public var directives: [Directive]
    public var location: Location
}

public struct InlineFragment: Sendable, Hashable {
    public var typeCondition: NamedType?
    public var directives: [Directive]
    public var selectionSet: SelectionSet
    public var location: Location
}

public struct FragmentDefinition: Sendable, Hashable {
    public var description: StringValue?
    public var name: Name
    public var typeCondition: NamedType
    public var directives: [Directive]
    public var selectionSet: SelectionSet
    public var location: Location
}

// MARK: - Values

/// Not `indirect`: lists and objects already hold their members in arrays,
/// so scalar values need no box of their own.
public enum Value: Sendable, Hashable {
    case variable(Variable)
    case int(IntValue)
    case float(FloatValue)
    case string(StringValue)
    case boolean(BooleanValue)
    case null(NullValue)
    case `enum`(EnumValue)
    case list(ListValue)
    case object(ObjectValue)

    public var location: Location {
        switch self {
        case .variable(let node): node.location
        case .int(let node): node.location
        case .float(let node): node.location
        case .string(let node): node.location
        case .boolean(let node): node.location
        case .null(let node): node.location
        case .enum(let node): node.location
        case .list(let node): node.location
        case .object(let node): node.location
        }
    }
}

public struct IntValue: Sendable, Hashable {
    /// The literal as written, so that no precision is lost before coercion.
    public var value: String
    public var location: Location
}

public struct FloatValue: Sendable, Hashable {
    public var value: String
    public var location: Location
}

public struct StringValue: Sendable, Hashable {
    public var value: String
    /// Whether the literal was a `"""` block string.
    public var isBlock: Bool
    public var location: Location

    public init(value: String, isBlock: Bool = false, location: Location = .none) {
        self.value = value
        self.isBlock = isBlock
        self.location = location
    }
}

public struct BooleanValue: Sendable, Hashable {
    public var value: Bool
    public var location: Location
}

public struct NullValue: Sendable, Hashable {
    public var location: Location
}

public struct EnumValue: Sendable, Hashable {
    public var value: String
    public var location: Location
}

public struct ListValue: Sendable, Hashable {
    public var values: [Value]
    public var location: Location
}

public struct ObjectValue: Sendable, Hashable {
    public var fields: [ObjectField]
    public var location: Location
}

public struct ObjectField: Sendable, Hashable {
    public var name: Name
    public var value: Value
    public var location: Location
}

// MARK: - Directives and type references

public struct Directive: Sendable, Hashable {
    public var name: Name
    public var arguments: [Argument]
    public var location: Location
}

/// A reference to a type in a variable, field or argument definition
/// (graphql-js calls this a TypeNode).
public enum TypeReference: Sendable, Hashable {
    case named(NamedType)
    // Only the wrappers are boxed; a plain named type costs no allocation.
    indirect case list(ListType)
    indirect case nonNull(NonNullType)

    public var location: Location {
        switch self {
        case .named(let node): node.location
        case .list(let node): node.location
        case .nonNull(let node): node.location
        }
    }

    /// The named type at the core of any list and non-null wrappers.
    public var namedType: NamedType {
        switch self {
        case .named(let node): node
        case .list(let node): node.type.namedType
        case .nonNull(let node): node.type.namedType
        }
    }
}

public struct NamedType: Sendable, Hashable {
    public var name: Name
    public var location: Location
}

public struct ListType: Sendable, Hashable {
    public var type: TypeReference
    public var location: Location
}

public struct NonNullType: Sendable, Hashable {
    /// A named or list type; the parser never nests non-null in non-null.
    public var type: TypeReference
    public var location: Location
}

// MARK: - Type system definitions

public struct SchemaDefinition: Sendable, Hashable {
    public var description: StringValue?
    public var directives: [Directive]
    public var operationTypes: [OperationTypeDefinition]
    public var location: Location
}

public struct OperationTypeDefinition: Sendable, Hashable {
    public var operation: OperationType
    public var type: NamedType
    public var location: Location
}

public enum TypeDefinition: Sendable, Hashable {
    case scalar(ScalarTypeDefinition)
    case object(ObjectTypeDefinition)
    case interface(InterfaceTypeDefinition)
    case union(UnionTypeDefinition)
    case `enum`(EnumTypeDefinition)
    case inputObject(InputObjectTypeDefinition)

    public var name: Name {
        switch self {
        case .scalar(let node): node.name
        case .object(let node): node.name
        case .interface(let node): node.name
        case .union(let node): node.name
        case .enum(let node): node.name
        case .inputObject(let node): node.name
        }
    }

    public var location: Location {
        switch self {
        case .scalar(let node): node.location
        case .object(let node): node.location
        case .interface(let node): node.location
        case .union(let node): node.location
        case .enum(let node): node.location
        case .inputObject(let node): node.location
        }
    }
}

public struct ScalarTypeDefinition: Sendable, Hashable {
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var location: Location
}

public struct ObjectTypeDefinition: Sendable, Hashable {
    public var description: StringValue?
    public var name: Name
    public var interfaces: [NamedType]
    public var directives: [Directive]
    public var fields: [FieldDefinition]
    public var location: Location
}

public struct FieldDefinition: Sendable, Hashable {
    public var description: StringValue?
    public var name: Name
    public var arguments: [InputValueDefinition]
    public var type: TypeReference
    public var directives: [Directive]
    public var location: Location
}

public struct InputValueDefinition: Sendable, Hashable {
    public var description: StringValue?
    public var name: Name
    public var type: TypeReference
    public var defaultValue: Value?
    public var directives: [Directive]
    public var location: Location
}

public struct InterfaceTypeDefinition: Sendable, Hashable {
    public var description: StringValue?
    public var name: Name
    public var interfaces: [NamedType]
    public var directives: [Directive]
    public var fields: [FieldDefinition]
    public var location: Location
}

public struct UnionTypeDefinition: Sendable, Hashable {
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var types: [NamedType]
    public var location: Location
}

public struct EnumTypeDefinition: Sendable, Hashable {
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var values: [EnumValueDefinition]
    public var location: Location
}

public struct EnumValueDefinition: Sendable, Hashable {
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var location: Location
}

public struct InputObjectTypeDefinition: Sendable, Hashable {
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var fields: [InputValueDefinition]
    public var location: Location
}

public struct DirectiveDefinition: Sendable, Hashable {
    public var description: StringValue?
    public var name: Name
    public var arguments: [InputValueDefinition]
    public var isRepeatable: Bool
    public var locations: [Name]
    public var location: Location
}

/// Where a directive may appear (spec §3.13).
public enum DirectiveLocation: String, Sendable, Hashable, CaseIterable {
    // Executable directive locations
    case query = "QUERY"
    case mutation = "MUTATION"
    case subscription = "SUBSCRIPTION"
    case field = "FIELD"
    case fragmentDefinition = "FRAGMENT_DEFINITION"
    case fragmentSpread = "FRAGMENT_SPREAD"
    case inlineFragment = "INLINE_FRAGMENT"
    case variableDefinition = "VARIABLE_DEFINITION"
    // Type system directive locations
    case schema = "SCHEMA"
    case scalar = "SCALAR"
    case object = "OBJECT"
    case fieldDefinition = "FIELD_DEFINITION"
    case argumentDefinition = "ARGUMENT_DEFINITION"
    case interface = "INTERFACE"
    case union = "UNION"
    case `enum` = "ENUM"
    case enumValue = "ENUM_VALUE"
    case inputObject = "INPUT_OBJECT"
    case inputFieldDefinition = "INPUT_FIELD_DEFINITION"
}

// MARK: - Type system extensions

public struct SchemaExtension: Sendable, Hashable {
    public var directives: [Directive]
    public var operationTypes: [OperationTypeDefinition]
    public var location: Location
}

public enum TypeExtension: Sendable, Hashable {
    case scalar(ScalarTypeExtension)
    case object(ObjectTypeExtension)
    case interface(InterfaceTypeExtension)
    case union(UnionTypeExtension)
    case `enum`(EnumTypeExtension)
    case inputObject(InputObjectTypeExtension)

    public var name: Name {
        switch self {
        case .scalar(let node): node.name
        case .object(let node): node.name
        case .interface(let node): node.name
        case .union(let node): node.name
        case .enum(let node): node.name
        case .inputObject(let node): node.name
        }
    }

    public var location: Location {
        switch self {
        case .scalar(let node): node.location
        case .object(let node): node.location
        case .interface(let node): node.location
        case .union(let node): node.location
        case .enum(let node): node.location
        case .inputObject(let node): node.location
        }
    }
}

public struct ScalarTypeExtension: Sendable, Hashable {
    public var name: Name
    public var directives: [Directive]
    public var location: Location
}

public struct ObjectTypeExtension: Sendable, Hashable {
    public var name: Name
    public var interfaces: [NamedType]
    public var directives: [Directive]
    public var fields: [FieldDefinition]
    public var location: Location
}

public struct InterfaceTypeExtension: Sendable, Hashable {
    public var name: Name
    public var interfaces: [NamedType]
    public var directives: [Directive]
    public var fields: [FieldDefinition]
    public var location: Location
}

public struct UnionTypeExtension: Sendable, Hashable {
    public var name: Name
    public var directives: [Directive]
    public var types: [NamedType]
    public var location: Location
}

public struct EnumTypeExtension: Sendable, Hashable {
    public var name: Name
    public var directives: [Directive]
    public var values: [EnumValueDefinition]
    public var location: Location
}

public struct InputObjectTypeExtension: Sendable, Hashable {
    public var name: Name
    public var directives: [Directive]
    public var fields: [InputValueDefinition]
    public var location: Location
}

// MARK: - The parts type definitions and extensions share

/// What a type definition or extension declares, whatever its kind (empty
/// for the parts its kind does not have), so that code that merges a
/// definition with its extensions need not repeat itself per kind.
public protocol TypeSystemParts {
    var directives: [Directive] { get }
    var fieldDefinitions: [FieldDefinition] { get }
    var interfaces: [NamedType] { get }
    var unionMembers: [NamedType] { get }
    var enumValues: [EnumValueDefinition] { get }
    var inputFields: [InputValueDefinition] { get }
}

extension TypeDefinition: TypeSystemParts {
    public var descriptionValue: String? {
        switch self {
        case .scalar(let node): node.description?.value
        case .object(let node): node.description?.value
        case .interface(let node): node.description?.value
        case .union(let node): node.description?.value
        case .enum(let node): node.description?.value
        case .inputObject(let node): node.description?.value
        }
    }

    public var directives: [Directive] {
        switch self {
        case .scalar(let node): node.directives
        case .object(let node): node.directives
        case .interface(let node): node.directives
        case .union(let node): node.directives
        case .enum(let node): node.directives
        case .inputObject(let node): node.directives
        }
    }

    public var fieldDefinitions: [FieldDefinition] {
        switch self {
        case .object(let node): node.fields
        case .interface(let node): node.fields
        default: []
        }
    }

    public var interfaces: [NamedType] {
        switch self {
        case .object(let node): node.interfaces
        case .interface(let node): node.interfaces
        default: []
        }
    }

    public var unionMembers: [NamedType] {
        if case .union(let node) = self { return node.types }
        return []
    }

    public var enumValues: [EnumValueDefinition] {
        if case .enum(let node) = self { return node.values }
        return []
    }

    public var inputFields: [InputValueDefinition] {
        if case .inputObject(let node) = self { return node.fields }
        return []
    }
}

extension TypeExtension: TypeSystemParts {
    public var directives: [Directive] {
        switch self {
        case .scalar(let node): node.directives
        case .object(let node): node.directives
        case .interface(let node): node.directives
        case .union(let node): node.directives
        case .enum(let node): node.directives
        case .inputObject(let node): node.directives
        }
    }

    public var fieldDefinitions: [FieldDefinition] {
        switch self {
        case .object(let node): node.fields
        case .interface(let node): node.fields
        default: []
        }
    }

    public var interfaces: [NamedType] {
        switch self {
        case .object(let node): node.interfaces
        case .interface(let node): node.interfaces
        default: []
        }
    }

    public var unionMembers: [NamedType] {
        if case .union(let node) = self { return node.types }
        return []
    }

    public var enumValues: [EnumValueDefinition] {
        if case .enum(let node) = self { return node.values }
        return []
    }

    public var inputFields: [InputValueDefinition] {
        if case .inputObject(let node) = self { return node.fields }
        return []
    }
}
