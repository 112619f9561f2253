/// A schema with its resolvers bound: what the executor runs against.
///
/// Every field is resolved by the resolver bound to `Type.field`, or, for the
/// object types marked as reading their fields by name, by the default
/// resolver (a JSON parent's member of the field's name, as graphql-js reads
/// a property). Building checks that every field of every object type can be
/// resolved, so nothing fails at request time with "no resolver".
public struct ExecutableSchema: Sendable {
    public let schema: GraphQLSchema
    private let resolvers: [ObjectIdentifier: BoundResolver]
    private let subscribers: [ObjectIdentifier: BoundSource]
    private let typeResolvers: [String: TypeResolver]
    private let defaultResolved: Set<String>
    /// What a resolver's error that is not a `GraphQLError` becomes in the
    /// response; nil for its description, as graphql-js gives its message.
    let unexpectedError: (@Sendable (any Error) -> GraphQLError)?
    /// Tells one built schema from another (their resolvers differ): a plan
    /// kept between runs holds its resolvers, so it is lent only to runs of
    /// the schema that made it.
    let identity = Identity()

    final class Identity: Sendable {}

    /// A field's resolver, as it was bound.
    enum BoundResolver: Sendable {
        case input(FieldResolver)
        case parent(ParentResolver)
        /// A field of the objects of one Swift class: called with the
        /// instance once the executor has checked its class (once per object,
        /// not per field); `fallback` takes any other parent.
        case instance(class: ObjectIdentifier, InstanceResolver, fallback: ParentResolver)
        /// As `instance`, for a resolver that also takes the field's input.
        case instanceWithInput(class: ObjectIdentifier, InstanceInputResolver, fallback: FieldResolver)

        /// Whether it is given a `ResolverInput`, whose info may look ahead.
        var takesInput: Bool {
            switch self {
            case .input, .instanceWithInput: true
            case .parent, .instance: false
            }
        }
    }

    /// Called only with an instance of the class it was bound for.
    typealias InstanceResolver = @Sendable (AnyObject) throws -> Resolved
    /// Called only with an instance of the class it was bound for, and the input.
    typealias InstanceInputResolver = @Sendable (AnyObject, ResolverInput) throws -> Resolved

    func resolver(for field: GraphQLField) -> BoundResolver? {
        resolvers[ObjectIdentifier(field)]
    }

    /// A subscription field's source, as it was bound.
    enum BoundSource: Sendable {
        case stream(SubscriptionSource)
        case feed(SubscriptionFeedSource)
    }

    func subscriber(for field: GraphQLField) -> BoundSource? {
        subscribers[ObjectIdentifier(field)]
    }

    func typeResolver(for abstractType: GraphQLNamedType) -> TypeResolver? {
        typeResolvers[abstractType.name]
    }

    /// Every object type reads its fields by name from JSON parents, and
    /// abstract types take their object type from `__typename`: graphql-js's
    /// default resolvers, as `huddle execute` uses them.
    public static func readingFieldsByName(_ schema: GraphQLSchema) -> ExecutableSchema {
        var builder = Builder(schema: schema)
        for type in schema.types where type.kind == .object { builder.readFieldsByName(type.name) }
        return try! builder.build()
    }

    public struct Builder {
        public let schema: GraphQLSchema
        private var resolvers: [ObjectIdentifier: BoundResolver] = [:]
        private var subscribers: [ObjectIdentifier: BoundSource] = [:]
        private var typeResolvers: [String: TypeResolver] = [:]
        private var defaultResolved: Set<String> = []
        private var problems: [String] = []
        /// What a resolver's error that is not a `GraphQLError` becomes: a
        /// server masks what it does not mean clients to read (a database's
        /// own text), logs it, and gives a code.
        public var unexpectedError: (@Sendable (any Error) -> GraphQLError)?

        public init(schema: GraphQLSchema) {
            self.schema = schema
        }

        /// Binds the resolver of `typeName.fieldName`.
        public mutating func resolve(_ typeName: String, _ fieldName: String, _ resolver: @escaping FieldResolver) {
            bind(typeName, fieldName, .input(resolver))
        }

        /// Binds the resolver of `typeName.fieldName` that reads only the
        /// parent; it is cheaper to call than one taking a `ResolverInput`.
        /// The field's arguments, if it has any, are still coerced (and
        /// reported when they are wrong).
        public mutating func resolveFromParent(_ typeName: String, _ fieldName: String, _ resolver: @escaping ParentResolver) {
            bind(typeName, fieldName, .parent(resolver))
        }

        /// Binds the resolver of `typeName.fieldName` for parents that are
        /// instances of `Object`: the cheapest kind for the executor to call,
        /// since it checks an object's class once for all its fields instead
        /// of casting the parent in every resolver.
        public mutating func resolve<Object: AnyObject & Sendable>(
            _ typeName: String, _ fieldName: String, on objectClass: Object.Type,
            _ resolver: @escaping @Sendable (Object) throws -> Resolved
        ) {
            bind(
                typeName, fieldName,
                .instance(
                    class: ObjectIdentifier(objectClass),
                    // Safe: the executor calls it only after comparing the class.
                    { object in try resolver(unsafeDowncast(object, to: Object.self)) },
                    fallback: { parent in try resolver(Self.instance(of: parent, typeName, fieldName)) }
                ))
        }

        /// Binds the resolver of `typeName.fieldName` for parents that are
        /// instances of `Object`, with the field's arguments, context and
        /// info: as the one above, the class is checked once per object
        /// rather than the parent cast in every resolver.
        public mutating func resolve<Object: AnyObject & Sendable>(
            _ typeName: String, _ fieldName: String, on objectClass: Object.Type,
            _ resolver: @escaping @Sendable (Object, ResolverInput) throws -> Resolved
        ) {
            bind(
                typeName, fieldName,
                .instanceWithInput(
                    class: ObjectIdentifier(objectClass),
                    // Safe: the executor calls it only after comparing the class.
                    { object, input in try resolver(unsafeDowncast(object, to: Object.self), input) },
                    fallback: { input in try resolver(Self.instance(of: input.parent, typeName, fieldName), input) }
                ))
        }

        /// The parent of a field bound on `Object` that the executor's class
        /// check let through (another class, a subclass, JSON): cast, or the field's error.
        private static func instance<Object>(of parent: Parent, _ typeName: String, _ fieldName: String) throws -> Object {
            guard case .object(let value) = parent, let object = value as? Object else {
                throw GraphQLError(message: "\(typeName).\(fieldName) was resolved on a \(parent), not a \(Object.self).")
            }
            return object
        }

        private mutating func bind(_ typeName: String, _ fieldName: String, _ resolver: BoundResolver) {
            guard let type = schema.type(named: typeName), type.kind == .object || type.kind == .interface else {
                problems.append("Cannot bind a resolver to \"\(typeName).\(fieldName)\": there is no object type \"\(typeName)\".")
                return
            }
            // Introspection is the server's, read off the schema (spec §4.2).
            guard !typeName.hasPrefix("__") else {
                problems.append("Cannot bind a resolver to \"\(typeName).\(fieldName)\": introspection types are resolved from the schema.")
                return
            }
            guard let field = type.field(named: fieldName) else {
                problems.append("Cannot bind a resolver to \"\(typeName).\(fieldName)\": \"\(typeName)\" has no field \"\(fieldName)\".")
                return
            }
            resolvers[ObjectIdentifier(field)] = resolver
        }

        /// Binds the source event stream of a subscription root field: each
        /// event becomes the parent the field (and the rest of the selection)
        /// is executed on, as its own response.
        public mutating func subscribe(_ typeName: String, _ fieldName: String, _ source: @escaping SubscriptionSource) {
            bindSource(typeName, fieldName, .stream(source))
        }

        /// Binds the source of a subscription root field as a feed, which
        /// calls its subscribers with each event (`SourceEventFeed`).
        public mutating func subscribe(_ typeName: String, _ fieldName: String, feed source: @escaping SubscriptionFeedSource) {
            bindSource(typeName, fieldName, .feed(source))
        }

        private mutating func bindSource(_ typeName: String, _ fieldName: String, _ source: BoundSource) {
            guard let type = schema.subscriptionType, type.name == typeName, let field = type.field(named: fieldName) else {
                problems.append("Cannot bind a subscription to \"\(typeName).\(fieldName)\": it is not a field of the subscription type.")
                return
            }
            subscribers[ObjectIdentifier(field)] = source
        }

        /// Lets the fields of `typeName` without a resolver read the parent's member of their name.
        public mutating func readFieldsByName(_ typeName: String) {
            defaultResolved.insert(typeName)
        }

        /// Registers a custom scalar's coercion. It is kept on the scalar's
        /// type, where validation and variable coercion find it too, so a
        /// schema serves one coercion per scalar: build one `GraphQLSchema`
        /// per executable schema.
        public mutating func scalar(_ name: String, _ coercion: ScalarCoercion) {
            guard let type = schema.type(named: name), type.kind == .scalar, !["Int", "Float", "String", "Boolean", "ID"].contains(name)
            else {
                problems.append("\"\(name)\" is not a custom scalar of the schema.")
                return
            }
            type.scalarCoercion = coercion
        }

        /// Binds how an interface or union names the object type of a value.
        public mutating func resolveType(_ typeName: String, _ resolver: @escaping TypeResolver) {
            typeResolvers[typeName] = resolver
        }

        /// The executable schema, or every field that nothing could resolve.
        public func build() throws(ExecutableSchemaError) -> ExecutableSchema {
            var problems = self.problems
            for type in schema.types where type.kind == .object && !type.name.hasPrefix("__") {
                for field in type.fields where resolvers[ObjectIdentifier(field)] == nil && !defaultResolved.contains(type.name) {
                    problems.append(
                        "Field \"\(type.name).\(field.name)\" has no resolver, and \"\(type.name)\" does not read fields by name.")
                }
            }
            if !problems.isEmpty { throw ExecutableSchemaError(problems: problems) }
            return ExecutableSchema(
                schema: schema, resolvers: resolvers, subscribers: subscribers, typeResolvers: typeResolvers,
                defaultResolved: defaultResolved, unexpectedError: unexpectedError
            )
        }
    }

    private init(
        schema: GraphQLSchema, resolvers: [ObjectIdentifier: BoundResolver],
        subscribers: [ObjectIdentifier: BoundSource], typeResolvers: [String: TypeResolver],
        defaultResolved: Set<String>, unexpectedError: (@Sendable (any Error) -> GraphQLError)?
    ) {
        self.unexpectedError = unexpectedError
        self.schema = schema
        self.resolvers = resolvers
        self.subscribers = subscribers
        self.typeResolvers = typeResolvers
        self.defaultResolved = defaultResolved
    }
}

/// Fields that no resolver covers, and resolvers bound to fields that do not exist.
public struct ExecutableSchemaError: Error, Sendable, CustomStringConvertible {
    public var problems: [String]
    public var description: String { problems.joined(separator: "\n") }
}
