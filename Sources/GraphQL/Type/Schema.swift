/// A GraphQL schema (spec §3.3): its types, directives and root operation
/// types. Built once (see `buildSchema`) and read-only afterwards: its own
/// properties are constants, and it seals its types and directives, whose
/// changes after that stop a debug run (`GraphQLNamedType.seal`).
public final class GraphQLSchema: @unchecked Sendable {
    public let description: String?
    public let queryType: GraphQLNamedType?
    public let mutationType: GraphQLNamedType?
    public let subscriptionType: GraphQLNamedType?
    /// Every type, in the order graphql-js lists them: the schema's own
    /// types as defined, with the built-in types each first refers to.
    public let types: [GraphQLNamedType]
    public let directives: [GraphQLDirective]
    public let definition: SchemaDefinition?
    public let extensions: [SchemaExtension]
    /// The sources of `definition` and of each extension, for error locations.
    public let definitionSource: Source?
    public let extensionSources: [Source]

    private let typeIndex: NameTable<GraphQLNamedType>
    private let directiveIndex: NameTable<Int>
    /// For each interface, the objects and interfaces that implement it.
    private let implementations: NameTable<Implementations>

    private struct Implementations: Sendable {
        var objects: [GraphQLNamedType] = []
        var interfaces: [GraphQLNamedType] = []
    }

    init(
        description: String?,
        queryType: GraphQLNamedType?,
        mutationType: GraphQLNamedType?,
        subscriptionType: GraphQLNamedType?,
        types: [GraphQLNamedType],
        directives: [GraphQLDirective],
        definition: SchemaDefinition?,
        extensions: [SchemaExtension],
        definitionSource: Source? = nil,
        extensionSources: [Source] = []
    ) {
        self.definitionSource = definitionSource
        self.extensionSources = extensionSources
        self.description = description
        self.queryType = queryType
        self.mutationType = mutationType
        self.subscriptionType = subscriptionType
        self.directives = directives
        self.definition = definition
        self.extensions = extensions
        self.types = Self.collectReferencedTypes(
            types: types, roots: [queryType, mutationType, subscriptionType].compactMap { $0 }, directives: directives
        )
        typeIndex = NameTable(self.types.lazy.map { ($0.name, $0) })
        directiveIndex = NameTable(directives.enumerated().lazy.map { ($1.name, $0) })
        var implementations: [String: Implementations] = [:]
        var interfaceNames: [String] = []
        for type in self.types where type.kind == .object || type.kind == .interface {
            for interface in type.interfaces where interface.kind == .interface {
                if implementations[interface.name] == nil { interfaceNames.append(interface.name) }
                if type.kind == .object {
                    implementations[interface.name, default: Implementations()].objects.append(type)
                } else {
                    implementations[interface.name, default: Implementations()].interfaces.append(type)
                }
            }
        }
        self.implementations = NameTable(interfaceNames.lazy.map { ($0, implementations[$0]!) })
        for type in self.types { type.seal() }
        for directive in directives { directive.seal() }
    }

    /// graphql-js's type map order. It starts from a set of the given types
    /// and moves each to the end as it visits it, its new references following
    /// depth first; so a given type is listed when its own turn comes, and a
    /// built-in one right after the first type that refers to it. Then come
    /// the roots, the directive arguments and the introspection types.
    private static func collectReferencedTypes(
        types: [GraphQLNamedType], roots: [GraphQLNamedType], directives: [GraphQLDirective]
    ) -> [GraphQLNamedType] {
        var collector = TypeCollector(pending: Set(types))
        for type in types {
            collector.pending.remove(type)
            collector.collect(type)
        }
        for root in roots { collector.collect(root) }
        for directive in directives {
            for argument in directive.arguments { collector.collect(argument.type.namedType) }
        }
        collector.collect(Builtins.shared.type(named: "__Schema")!)
        return collector.ordered
    }

    public func type(named name: String) -> GraphQLNamedType? {
        typeIndex[name]
    }

    public func directive(named name: String) -> GraphQLDirective? {
        directiveIndex[name].map { directives[$0] }
    }

    public func rootType(for operation: OperationType) -> GraphQLNamedType? {
        switch operation {
        case .query: queryType
        case .mutation: mutationType
        case .subscription: subscriptionType
        }
    }

    /// The object types an abstract type can be at run time.
    public func possibleTypes(of type: GraphQLNamedType) -> [GraphQLNamedType] {
        switch type.kind {
        case .union: type.unionMembers
        case .interface: implementations[type.name]?.objects ?? []
        default: []
        }
    }

    /// Whether `maybeSubType` is a possible type of, or an interface implementing, `abstractType`.
    public func isSubType(_ abstractType: GraphQLNamedType, _ maybeSubType: GraphQLNamedType) -> Bool {
        switch abstractType.kind {
        case .union:
            return abstractType.unionMembers.contains(maybeSubType)
        case .interface:
            guard let implementing = implementations[abstractType.name] else { return false }
            return implementing.objects.contains(maybeSubType) || implementing.interfaces.contains(maybeSubType)
        default:
            return false
        }
    }
}

private struct TypeCollector {
    /// Given types whose turn has not come yet: they count as listed.
    var pending: Set<GraphQLNamedType>
    var seen: Set<GraphQLNamedType> = []
    var ordered: [GraphQLNamedType] = []

    mutating func collect(_ type: GraphQLNamedType) {
        guard !pending.contains(type), seen.insert(type).inserted else { return }
        ordered.append(type)
        switch type.kind {
        case .union:
            for member in type.unionMembers { collect(member) }
        case .object, .interface:
            for interface in type.interfaces { collect(interface) }
            for field in type.fields {
                collect(field.type.namedType)
                for argument in field.arguments { collect(argument.type.namedType) }
            }
        case .inputObject:
            for field in type.inputFields { collect(field.type.namedType) }
        case .scalar, .enum:
            break
        }
    }
}
