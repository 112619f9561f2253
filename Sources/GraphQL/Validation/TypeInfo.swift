/// What a traversal of a document knows about the schema at the current
/// node: the output type of the field, its parent type, the field and
/// argument definitions, the expected input type of a value. Kept as
/// graphql-js's TypeInfo keeps it, so the rules see exactly what its rules see.
/// A class, so that rules reading it through the context copy nothing.
final class TypeInfo {
    let schema: GraphQLSchema
    private var typeStack: [GraphQLType?] = []
    private var parentTypeStack: [GraphQLNamedType?] = []
    private var inputTypeStack: [GraphQLType?] = []
    private var fieldDefinitionStack: [GraphQLField?] = []
    private var defaultValueStack: [GraphQLValue?] = []
    private(set) var directive: GraphQLDirective?
    private(set) var argument: GraphQLInputValue?
    private(set) var enumValue: GraphQLEnumValue?

    init(schema: GraphQLSchema, initialType: GraphQLType? = nil) {
        self.schema = schema
        if let initialType {
            if initialType.isInputType { inputTypeStack.append(initialType) }
            if initialType.namedType.isCompositeType { parentTypeStack.append(initialType.namedType) }
            if initialType.isOutputType { typeStack.append(initialType) }
        }
    }

    var type: GraphQLType? { typeStack.last ?? nil }
    var parentType: GraphQLNamedType? { parentTypeStack.last ?? nil }
    var inputType: GraphQLType? { inputTypeStack.last ?? nil }
    var parentInputType: GraphQLType? { inputTypeStack.count >= 2 ? inputTypeStack[inputTypeStack.count - 2] : nil }
    var fieldDefinition: GraphQLField? { fieldDefinitionStack.last ?? nil }
    /// The default value of the argument or input field being read, if it has one.
    var defaultValue: GraphQLValue? { defaultValueStack.last ?? nil }

    // MARK: Entering and leaving nodes

    func enterSelectionSet() {
        let named = type?.namedType
        parentTypeStack.append(named.flatMap { $0.isCompositeType ? $0 : nil })
    }

    func leaveSelectionSet() { parentTypeStack.removeLast() }

    func enterField(_ node: Field) {
        let definition = parentType.flatMap { schema.field(named: node.name.value, on: $0) }
        fieldDefinitionStack.append(definition)
        typeStack.append(definition.flatMap { $0.type.isOutputType ? $0.type : nil })
    }

    func leaveField() {
        fieldDefinitionStack.removeLast()
        typeStack.removeLast()
    }

    func enterDirective(_ node: Directive) { directive = schema.directive(named: node.name.value) }
    func leaveDirective() { directive = nil }

    func enterOperation(_ node: OperationDefinition) {
        let root = schema.rootType(for: node.operation)
        typeStack.append(root.flatMap { $0.kind == .object ? .named($0) : nil })
    }

    func leaveOperation() { typeStack.removeLast() }

    func enterFragment(typeCondition: NamedType?) {
        let outputType: GraphQLType? =
            typeCondition.map { typeFromAST(schema, .named($0)) }
            ?? type.map { .named($0.namedType) }
        typeStack.append(outputType.flatMap { $0.isOutputType ? $0 : nil })
    }

    func leaveFragment() { typeStack.removeLast() }

    func enterVariableDefinition(_ node: VariableDefinition) {
        let inputType = typeFromAST(schema, node.type)
        inputTypeStack.append(inputType.flatMap { $0.isInputType ? $0 : nil })
    }

    func leaveVariableDefinition() { inputTypeStack.removeLast() }

    func enterArgument(_ node: Argument) {
        var definition: GraphQLInputValue? = nil
        if let directive {
            definition = directive.argument(named: node.name.value)
        } else if let fieldDefinition {
            definition = fieldDefinition.argument(named: node.name.value)
        }
        argument = definition
        defaultValueStack.append(definition?.defaultValue)
        inputTypeStack.append(definition.flatMap { $0.type.isInputType ? $0.type : nil })
    }

    func leaveArgument() {
        argument = nil
        defaultValueStack.removeLast()
        inputTypeStack.removeLast()
    }

    func enterListValue() {
        let listType = inputType?.nullableType
        var itemType = listType
        if case .list(let inner) = listType { itemType = inner }
        defaultValueStack.append(nil)
        inputTypeStack.append(itemType.flatMap { $0.isInputType ? $0 : nil })
    }

    func leaveListValue() {
        defaultValueStack.removeLast()
        inputTypeStack.removeLast()
    }

    func enterObjectField(_ node: ObjectField) {
        let objectType = inputType?.namedType
        var fieldType: GraphQLType? = nil
        if let objectType, objectType.kind == .inputObject {
            let field = objectType.inputField(named: node.name.value)
            fieldType = field?.type
            defaultValueStack.append(field?.defaultValue)
        } else {
            defaultValueStack.append(nil)
        }
        inputTypeStack.append(fieldType.flatMap { $0.isInputType ? $0 : nil })
    }

    func leaveObjectField() {
        defaultValueStack.removeLast()
        inputTypeStack.removeLast()
    }

    func enterEnumValue(_ node: EnumValue) {
        let enumType = inputType?.namedType
        enumValue = enumType.flatMap { $0.kind == .enum ? $0.enumValue(named: node.value) : nil }
    }

    func leaveEnumValue() { enumValue = nil }
}

extension GraphQLSchema {
    /// The field a selection names on a parent type, including the meta-fields
    /// `__typename` (on any composite type) and `__schema`, `__type` (on the query type).
    public func field(named name: String, on parentType: GraphQLNamedType) -> GraphQLField? {
        // Only a name starting with `_` can be a meta-field: most are told
        // apart by a byte, not three comparisons of strings.
        if name.utf8.first == UInt8(ascii: "_") {
            if name == "__schema" && queryType === parentType { return MetaFields.schema }
            if name == "__type" && queryType === parentType { return MetaFields.type }
            if name == "__typename" && parentType.isCompositeType { return MetaFields.typename }
        }
        if parentType.kind == .object || parentType.kind == .interface { return parentType.field(named: name) }
        return nil
    }
}

/// The type a type reference names in the schema, or nil when the name is unknown.
func typeFromAST(_ schema: GraphQLSchema, _ reference: TypeReference) -> GraphQLType? {
    switch reference {
    case .named(let named): schema.type(named: named.name.value).map(GraphQLType.named)
    case .list(let list): typeFromAST(schema, list.type).map(GraphQLType.list)
    case .nonNull(let nonNull): typeFromAST(schema, nonNull.type).map(GraphQLType.nonNull)
    }
}

/// The introspection meta-fields, which no type declares (spec §4.2).
enum MetaFields {
    static let schema = GraphQLField(
        name: "__schema", description: "Access the current type schema of this server.",
        type: .nonNull(.named(Builtins.shared.type(named: "__Schema")!)), arguments: []
    )
    static let type = GraphQLField(
        name: "__type", description: "Request the type information of a single type.",
        type: .named(Builtins.shared.type(named: "__Type")!),
        arguments: [GraphQLInputValue(name: "name", type: .nonNull(.named(Builtins.shared.type(named: "String")!)))]
    )
    static let typename = GraphQLField(
        name: "__typename", description: "The name of the current Object type at runtime.",
        type: .nonNull(.named(Builtins.shared.type(named: "String")!)), arguments: []
    )
}
