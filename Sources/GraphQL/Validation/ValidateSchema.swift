/// Type-system validation (spec §3): the rules a schema must satisfy before
/// any operation runs against it. Every problem is reported, each with the
/// locations of the definitions involved, in graphql-js 16's words and order.
public func validateSchema(_ schema: GraphQLSchema) -> [GraphQLError] {
    var context = SchemaValidationContext(schema: schema)
    context.validateRootTypes()
    context.validateDirectives()
    context.validateTypes()
    return context.errors
}

/// A definition's node and the source it came from.
private typealias Located = (location: Location, source: Source?)

private struct SchemaValidationContext {
    let schema: GraphQLSchema
    var errors: [GraphQLError] = []

    init(schema: GraphQLSchema) {
        self.schema = schema
    }

    mutating func report(_ message: String, _ nodes: [Located?]) {
        let located = nodes.compactMap { $0 }.filter { $0.source != nil }
        var error = GraphQLError(message: message, locations: located.map { $0.source!.location(at: $0.location.start) })
        error.sourceName = located.first?.source?.name
        errors.append(error)
    }

    // MARK: Root types

    mutating func validateRootTypes() {
        let schemaNode: Located? = schema.definition.map { ($0.location, schema.definitionSource) }
        guard let query = schema.queryType else {
            report("Query root type must be provided.", [schemaNode])
            return validateOtherRoots()
        }
        if query.kind != .object {
            report(
                "Query root type must be Object type, it cannot be \(query.name).",
                [operationTypeNode(.query) ?? typeNode(query)]
            )
        }
        validateOtherRoots()
    }

    private mutating func validateOtherRoots() {
        if let mutation = schema.mutationType, mutation.kind != .object {
            report(
                "Mutation root type must be Object type if provided, it cannot be \(mutation.name).",
                [operationTypeNode(.mutation) ?? typeNode(mutation)]
            )
        }
        if let subscription = schema.subscriptionType, subscription.kind != .object {
            report(
                "Subscription root type must be Object type if provided, it cannot be \(subscription.name).",
                [operationTypeNode(.subscription) ?? typeNode(subscription)]
            )
        }
    }

    private func operationTypeNode(_ operation: OperationType) -> Located? {
        var nodes: [([OperationTypeDefinition], Source?)] = []
        if let definition = schema.definition { nodes.append((definition.operationTypes, schema.definitionSource)) }
        for (index, node) in schema.extensions.enumerated() {
            nodes.append((node.operationTypes, schema.extensionSources[safe: index]))
        }
        for (operationTypes, source) in nodes {
            if let node = operationTypes.first(where: { $0.operation == operation }) {
                return (node.type.location, source)
            }
        }
        return nil
    }

    private func typeNode(_ type: GraphQLNamedType) -> Located? {
        type.definition.map { ($0.location, type.definitionSource) }
    }

    /// The type's definition and extensions, as graphql-js lists `[astNode, ...extensionASTNodes]`.
    private func typeNodes(_ type: GraphQLNamedType) -> [Located?] {
        [typeNode(type)] + type.extensions.enumerated().map { index, node in (node.location, type.extensionSources[safe: index]) }
    }

    // MARK: Directives

    mutating func validateDirectives() {
        for directive in schema.directives where directive.definition != nil {
            validateName(directive.name, (directive.definition!.location, directive.source))
            for argument in directive.arguments {
                validateName(argument.name, located(argument))
                if !argument.type.isInputType {
                    report(
                        "The type of @\(directive.name)(\(argument.name):) must be Input Type but got: \(argument.type).",
                        [located(argument)]
                    )
                }
                if argument.isRequired && argument.deprecationReason != nil {
                    report(
                        "Required argument @\(directive.name)(\(argument.name):) cannot be deprecated.",
                        [deprecatedDirective(argument.definition?.directives, argument.source), typeOf(argument)]
                    )
                }
            }
        }
    }

    private mutating func validateName(_ name: String, _ node: Located?) {
        if name.hasPrefix("__") {
            report("Name \"\(name)\" must not begin with \"__\", which is reserved by GraphQL introspection.", [node])
        }
    }

    private func located(_ value: GraphQLInputValue) -> Located? {
        value.definition.map { ($0.location, value.source) }
    }

    private func typeOf(_ value: GraphQLInputValue) -> Located? {
        value.definition.map { ($0.type.location, value.source) }
    }

    private func deprecatedDirective(_ directives: [Directive]?, _ source: Source?) -> Located? {
        directives?.first { $0.name.value == "deprecated" }.map { ($0.location, source) }
    }

    // MARK: Types

    mutating func validateTypes() {
        var cycles = InputObjectCycleDetector()
        let builtins = Builtins.shared
        for type in schema.types {
            if !builtins.isIntrospectionType(type) {
                validateName(type.name, typeNode(type))
            }
            switch type.kind {
            case .object, .interface:
                validateFields(type)
                validateInterfaces(type)
            case .union:
                validateUnionMembers(type)
            case .enum:
                validateEnumValues(type)
            case .inputObject:
                validateInputFields(type)
                cycles.detect(type, context: &self)
            case .scalar:
                break
            }
        }
    }

    private mutating func validateFields(_ type: GraphQLNamedType) {
        if type.fields.isEmpty {
            report("Type \(type.name) must define one or more fields.", typeNodes(type))
        }
        for field in type.fields {
            validateName(field.name, field.definition.map { ($0.location, field.source) })
            if !field.type.isOutputType {
                report(
                    "The type of \(type.name).\(field.name) must be Output Type but got: \(field.type).",
                    [field.definition.map { ($0.type.location, field.source) }]
                )
            }
            for argument in field.arguments {
                validateName(argument.name, located(argument))
                if !argument.type.isInputType {
                    report(
                        "The type of \(type.name).\(field.name)(\(argument.name):) must be Input Type but got: \(argument.type).",
                        [typeOf(argument)]
                    )
                }
                if argument.isRequired && argument.deprecationReason != nil {
                    report(
                        "Required argument \(type.name).\(field.name)(\(argument.name):) cannot be deprecated.",
                        [deprecatedDirective(argument.definition?.directives, argument.source), typeOf(argument)]
                    )
                }
            }
        }
    }

    private mutating func validateInterfaces(_ type: GraphQLNamedType) {
        var seen: Set<String> = []
        for interface in type.interfaces {
            if interface.kind != .interface {
                report(
                    "Type \(type.name) must only implement Interface types, it cannot implement \(interface.name).",
                    implementsNodes(type, interface)
                )
                continue
            }
            if interface === type {
                report(
                    "Type \(type.name) cannot implement itself because it would create a circular reference.",
                    implementsNodes(type, interface)
                )
                continue
            }
            if !seen.insert(interface.name).inserted {
                report("Type \(type.name) can only implement \(interface.name) once.", implementsNodes(type, interface))
                continue
            }
            validateImplementsAncestors(type, interface)
            validateImplementsInterface(type, interface)
        }
    }

    private mutating func validateImplementsInterface(_ type: GraphQLNamedType, _ interface: GraphQLNamedType) {
        for interfaceField in interface.fields {
            let name = interfaceField.name
            guard let typeField = type.field(named: name) else {
                report(
                    "Interface field \(interface.name).\(name) expected but \(type.name) does not provide it.",
                    [interfaceField.definition.map { ($0.location, interfaceField.source) }] + typeNodes(type)
                )
                continue
            }
            if !isTypeSubType(typeField.type, of: interfaceField.type) {
                report(
                    "Interface field \(interface.name).\(name) expects type \(interfaceField.type) but \(type.name).\(name) is type \(typeField.type).",
                    [
                        interfaceField.definition.map { ($0.type.location, interfaceField.source) },
                        typeField.definition.map { ($0.type.location, typeField.source) },
                    ]
                )
            }
            for interfaceArgument in interfaceField.arguments {
                let argumentName = interfaceArgument.name
                guard let typeArgument = typeField.argument(named: argumentName) else {
                    report(
                        "Interface field argument \(interface.name).\(name)(\(argumentName):) expected but \(type.name).\(name) does not provide it.",
                        [located(interfaceArgument), typeField.definition.map { ($0.location, typeField.source) }]
                    )
                    continue
                }
                if interfaceArgument.type != typeArgument.type {
                    report(
                        "Interface field argument \(interface.name).\(name)(\(argumentName):) expects type \(interfaceArgument.type) but \(type.name).\(name)(\(argumentName):) is type \(typeArgument.type).",
                        [typeOf(interfaceArgument), typeOf(typeArgument)]
                    )
                }
            }
            for typeArgument in typeField.arguments
            where interfaceField.argument(named: typeArgument.name) == nil && typeArgument.isRequired {
                report(
                    "Object field \(type.name).\(name) includes required argument \(typeArgument.name) that is missing from the Interface field \(interface.name).\(name).",
                    [located(typeArgument), interfaceField.definition.map { ($0.location, interfaceField.source) }]
                )
            }
        }
    }

    private mutating func validateImplementsAncestors(_ type: GraphQLNamedType, _ interface: GraphQLNamedType) {
        for transitive in interface.interfaces where !type.interfaces.contains(transitive) {
            report(
                transitive === type
                    ? "Type \(type.name) cannot implement \(interface.name) because it would create a circular reference."
                    : "Type \(type.name) must implement \(transitive.name) because it is implemented by \(interface.name).",
                implementsNodes(interface, transitive) + implementsNodes(type, interface)
            )
        }
    }

    /// isTypeSubTypeOf: covariant field types.
    private func isTypeSubType(_ maybeSubType: GraphQLType, of superType: GraphQLType) -> Bool {
        if maybeSubType == superType { return true }
        switch (maybeSubType, superType) {
        case (.nonNull(let sub), .nonNull(let sup)): return isTypeSubType(sub, of: sup)
        case (_, .nonNull): return false
        case (.nonNull(let sub), _): return isTypeSubType(sub, of: superType)
        case (.list(let sub), .list(let sup)): return isTypeSubType(sub, of: sup)
        case (_, .list), (.list, _): return false
        case (.named(let sub), .named(let sup)):
            return sup.isAbstractType && (sub.kind == .interface || sub.kind == .object) && schema.isSubType(sup, sub)
        }
    }

    private func implementsNodes(_ type: GraphQLNamedType, _ interface: GraphQLNamedType) -> [Located?] {
        var nodes: [Located?] = []
        if case .object(let node) = type.definition {
            nodes += node.interfaces.filter { $0.name.value == interface.name }.map { ($0.location, type.definitionSource) }
        } else if case .interface(let node) = type.definition {
            nodes += node.interfaces.filter { $0.name.value == interface.name }.map { ($0.location, type.definitionSource) }
        }
        for (index, extensionNode) in type.extensions.enumerated() {
            let source = type.extensionSources[safe: index]
            if case .object(let node) = extensionNode {
                nodes += node.interfaces.filter { $0.name.value == interface.name }.map { ($0.location, source) }
            } else if case .interface(let node) = extensionNode {
                nodes += node.interfaces.filter { $0.name.value == interface.name }.map { ($0.location, source) }
            }
        }
        return nodes
    }

    private mutating func validateUnionMembers(_ union: GraphQLNamedType) {
        if union.unionMembers.isEmpty {
            report("Union type \(union.name) must define one or more member types.", typeNodes(union))
        }
        var seen: Set<String> = []
        for member in union.unionMembers {
            if !seen.insert(member.name).inserted {
                report("Union type \(union.name) can only include type \(member.name) once.", memberNodes(union, member.name))
                continue
            }
            if member.kind != .object {
                report(
                    "Union type \(union.name) can only include Object types, it cannot include \(member.name).",
                    memberNodes(union, member.name)
                )
            }
        }
    }

    private func memberNodes(_ union: GraphQLNamedType, _ name: String) -> [Located?] {
        var nodes: [Located?] = []
        if case .union(let node) = union.definition {
            nodes += node.types.filter { $0.name.value == name }.map { ($0.location, union.definitionSource) }
        }
        for (index, extensionNode) in union.extensions.enumerated() {
            if case .union(let node) = extensionNode {
                nodes += node.types.filter { $0.name.value == name }.map { ($0.location, union.extensionSources[safe: index]) }
            }
        }
        return nodes
    }

    private mutating func validateEnumValues(_ type: GraphQLNamedType) {
        if type.enumValues.isEmpty {
            report("Enum type \(type.name) must define one or more values.", typeNodes(type))
        }
        for value in type.enumValues {
            validateName(value.name, value.definition.map { ($0.location, value.source) })
        }
    }

    private mutating func validateInputFields(_ type: GraphQLNamedType) {
        if type.inputFields.isEmpty {
            report("Input Object type \(type.name) must define one or more fields.", typeNodes(type))
        }
        for field in type.inputFields {
            validateName(field.name, located(field))
            if !field.type.isInputType {
                report(
                    "The type of \(type.name).\(field.name) must be Input Type but got: \(field.type).",
                    [typeOf(field)]
                )
            }
            if field.isRequired && field.deprecationReason != nil {
                report(
                    "Required input field \(type.name).\(field.name) cannot be deprecated.",
                    [deprecatedDirective(field.definition?.directives, field.source), typeOf(field)]
                )
            }
            if type.isOneOf {
                if field.type.isNonNull {
                    report("OneOf input field \(type.name).\(field.name) must be nullable.", [typeOf(field)])
                }
                if field.definition?.defaultValue != nil {
                    report("OneOf input field \(type.name).\(field.name) cannot have a default value.", [located(field)])
                }
            }
        }
    }

    /// Input objects may not contain themselves through non-null fields:
    /// no value of such a type could ever be written.
    struct InputObjectCycleDetector {
        var visited: Set<String> = []
        var fieldPath: [GraphQLInputValue] = []
        var pathIndexByTypeName: [String: Int] = [:]

        mutating func detect(_ type: GraphQLNamedType, context: inout SchemaValidationContext) {
            guard visited.insert(type.name).inserted else { return }
            pathIndexByTypeName[type.name] = fieldPath.count
            for field in type.inputFields {
                guard case .nonNull(let inner) = field.type, case .named(let fieldType) = inner,
                    fieldType.kind == .inputObject
                else { continue }
                let cycleIndex = pathIndexByTypeName[fieldType.name]
                fieldPath.append(field)
                if let cycleIndex {
                    let cycle = Array(fieldPath[cycleIndex...])
                    context.report(
                        "Cannot reference Input Object \"\(fieldType.name)\" within itself through a series of non-null fields: \"\(cycle.map(\.name).joined(separator: "."))\".",
                        cycle.map { field in field.definition.map { ($0.location, field.source) } }
                    )
                } else {
                    detect(fieldType, context: &context)
                }
                fieldPath.removeLast()
            }
            pathIndexByTypeName[type.name] = nil
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
