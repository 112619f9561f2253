/// Executes an operation (spec §6): selects it, coerces its variables, runs
/// the resolvers and completes their values into the response.
///
/// Fields whose resolvers answer at once are completed at once, depth first,
/// with no task and no waiting. Fields that must wait (`Resolved.async`)
/// leave a placeholder and are run together, concurrently, once no ready
/// work is left; their results are completed in the order the fields were
/// met, which may start another round. A mutation's root fields run one
/// after another, each with everything below it.
public func execute(
    schema: ExecutableSchema,
    document: Document,
    source: Source,
    operationName: String? = nil,
    variables: [GraphQLValue.Member] = [],
    rootValue: Parent = .root,
    context: any Sendable = ()
) async -> ExecutionResult {
    let operation: OperationDefinition
    switch selectOperation(document, operationName) {
    case .success(let selected): operation = selected
    case .failure(let error): return ExecutionResult(data: nil, errors: [error])
    }
    let variableValues: [String: GraphQLValue]
    switch VariableValues.coerce(
        schema: schema.schema, definitions: operation.variableDefinitions, inputs: variables, source: source
    ) {
    case .success(let values): variableValues = values
    case .failure(let failure): return ExecutionResult(data: nil, errors: failure.errors)
    }
    guard let rootType = schema.schema.rootType(for: operation.operation) else {
        return ExecutionResult(data: nil, errors: [GraphQLError(
            message: "Schema is not configured to execute \(operation.operation.rawValue) operation.",
            locations: [source.location(at: operation.location.start)]
        )])
    }
    let executor = Executor(
        schema: schema, document: document, source: source, variableValues: variableValues, context: context
    )
    return await executor.run(operation, rootType: rootType, rootValue: rootValue)
}

/// GetOperation: the named operation, or the only one.
public func selectOperation(_ document: Document, _ name: String?) -> Result<OperationDefinition, GraphQLError> {
    var found: OperationDefinition?
    for case .operation(let operation) in document.definitions {
        if let name {
            if operation.name?.value == name { return .success(operation) }
        } else {
            if found != nil {
                return .failure(GraphQLError(message: "Must provide operation name if query contains multiple operations."))
            }
            found = operation
        }
    }
    if let found { return .success(found) }
    return .failure(GraphQLError(message: name.map { "Unknown operation named \"\($0)\"." } ?? "Must provide an operation."))
}

/// Where a completed value goes: a slot of an object or list under construction.
final class ResultContainer {
    var slots: [Slot] = []
    /// For objects: the planned fields, one per slot (shared by every object
    /// of a list, so an object costs no keys of its own).
    var fields: [Executor.PlannedField] = []
    let isList: Bool
    /// Nulled because a non-null value inside it failed.
    var isNull = false
    /// Where this container itself sits, nil for the root object.
    let link: Link?

    init(isList: Bool, link: Link?) {
        self.isList = isList
        self.link = link
    }

    /// This container's own position, made when a resolver below first needs it.
    lazy var pathNode: PathNode? = link.map { link in
        let parent = link.container
        return PathNode(parent.isList ? .index(link.index) : .key(parent.fields[link.index].key), parent: parent.pathNode)
    }

    enum Slot {
        case null
        case leaf(GraphQLValue)
        case container(ResultContainer)
        /// Waiting for an async field.
        case pending
        /// A field the object's type does not have (an unvalidated document): left out.
        case omitted
    }

    var response: ResponseValue {
        if isNull { return .null }
        func value(_ slot: Slot) -> ResponseValue {
            switch slot {
            case .null, .pending, .omitted: .null
            case .leaf(let leaf): .leaf(leaf)
            case .container(let container): container.response
            }
        }
        if isList { return .list(slots.map(value)) }
        return .object(zip(fields, slots).compactMap { field, slot in
            if case .omitted = slot { return nil }
            return ResponseValue.Member(key: field.key, value: value(slot))
        })
    }
}

/// A position in a container, and whether its type there is non-null.
struct Link {
    // The tree holds every container until the execution ends, so links need
    // no reference counting of their own.
    unowned(unsafe) let container: ResultContainer
    let index: Int
    let isNonNull: Bool
}

final class Executor {
    let schema: ExecutableSchema
    let document: Document
    let source: Source
    let variableValues: [String: GraphQLValue]
    let context: any Sendable
    let collector: FieldCollector
    private(set) var errors: [GraphQLError] = []
    /// The root object became null: a non-null root field failed.
    private var dataIsNull = false
    private var pending: [PendingField] = []

    struct PendingField {
        /// What the field waits for: its own work, or a share of a batch.
        var work: (@Sendable () async throws -> Resolved)?
        var deferred: (any DeferredValue)?
        var type: GraphQLType
        var fieldNodes: [Field]
        var field: FieldIdentity
        var link: Link
    }

    /// The field a value completes, for messages: `Parent.field`.
    struct FieldIdentity {
        var parentType: GraphQLNamedType
        var name: String
    }

    init(
        schema: ExecutableSchema, document: Document, source: Source,
        variableValues: [String: GraphQLValue], context: any Sendable
    ) {
        self.schema = schema
        self.document = document
        self.source = source
        self.variableValues = variableValues
        self.context = context
        collector = FieldCollector(schema: schema.schema, document: document, variableValues: variableValues)
    }

    func run(_ operation: OperationDefinition, rootType: GraphQLNamedType, rootValue: Parent) async -> ExecutionResult {
        let root = ResultContainer(isList: false, link: nil)
        let fields = plan(rootType, collector.collectFields(rootType, operation.selectionSet))
        if operation.operation == .mutation {
            root.fields = fields
            for field in fields {
                executeField(rootType, rootValue, field, into: root)
                await drain()
            }
        } else {
            executeFields(rootType, rootValue, fields, into: root)
            await drain()
        }
        return ExecutionResult(tree: dataIsNull ? nil : root, errors: errors)
    }

    /// A field to execute on an object type: its response key, its nodes and
    /// its definition (nil for `__typename` and for fields the type lacks).
    /// A class, since every object of a list runs the same plan.
    final class PlannedField {
        let key: String
        let nodes: [Field]
        let definition: GraphQLField?
        let isTypename: Bool

        /// `"key":`, escaped once for every object that writes it.
        let jsonKey: [UInt8]

        init(key: String, nodes: [Field], definition: GraphQLField?, isTypename: Bool) {
            self.key = key
            self.nodes = nodes
            self.definition = definition
            self.isTypename = isTypename
            var writer = JSONWriter(capacity: key.utf8.count + 3)
            writer.string(key)
            writer.raw(":")
            jsonKey = writer.bytes
        }
    }

    private struct PlanKey: Hashable {
        var type: ObjectIdentifier
        var location: Location
    }

    /// CollectSubfields is the same for every object of a list: it is
    /// worked out once per type and selection.
    private var plans: [PlanKey: [PlannedField]] = [:]

    private func plan(_ type: GraphQLNamedType, _ grouped: FieldCollector.GroupedFields) -> [PlannedField] {
        (0..<grouped.count).map { index in
            let nodes = grouped.fields[index]
            let name = nodes[0].name.value
            return PlannedField(
                key: grouped.keys[index], nodes: nodes,
                definition: name == "__typename" ? nil : schema.schema.field(named: name, on: type),
                isTypename: name == "__typename"
            )
        }
    }

    private func subfields(_ type: GraphQLNamedType, _ fieldNodes: [Field]) -> [PlannedField] {
        let location = fieldNodes[0].selectionSet?.location ?? fieldNodes[0].location
        guard location != .none else { return plan(type, collector.collectSubfields(type, fieldNodes)) }
        let key = PlanKey(type: ObjectIdentifier(type), location: location)
        if let cached = plans[key] { return cached }
        let planned = plan(type, collector.collectSubfields(type, fieldNodes))
        plans[key] = planned
        return planned
    }

    /// Runs every waiting field, then completes them in order; repeats while
    /// completing them leaves more waiting.
    private func drain() async {
        while !pending.isEmpty {
            let batch = pending
            pending = []
            // A task for each field's own work, and one for each batch that
            // deferred values share (not one per value).
            var outcomes = await withTaskGroup(of: (Int, Result<Resolved, any Error>)?.self) { group in
                var batches: Set<ObjectIdentifier> = []
                for (index, item) in batch.enumerated() {
                    if let work = item.work {
                        group.addTask {
                            do { return (index, .success(try await work())) } catch { return (index, .failure(error)) }
                        }
                    } else if let runner = item.deferred?.batch, batches.insert(ObjectIdentifier(runner)).inserted {
                        group.addTask {
                            await runner.run()
                            return nil
                        }
                    }
                }
                var outcomes = [Result<Resolved, any Error>?](repeating: nil, count: batch.count)
                for await finished in group {
                    if let (index, outcome) = finished { outcomes[index] = outcome }
                }
                return outcomes
            }
            for (index, item) in batch.enumerated() where item.work == nil {
                outcomes[index] = Result { try item.deferred!.resolve() }
            }
            for (item, outcome) in zip(batch, outcomes) {
                guard !isAbandoned(item.link) else { continue }
                switch outcome! {
                case .success(let resolved):
                    if let slot = complete(resolved, item.type, item.fieldNodes, item.field, link: item.link) {
                        item.link.container.slots[item.link.index] = slot
                    }
                case .failure(let error):
                    fail(error, item.fieldNodes, at: item.link)
                }
            }
        }
    }

    /// Whether a position's container, or one above it, was already nulled.
    private func isAbandoned(_ link: Link) -> Bool {
        var container: ResultContainer? = link.container
        while let current = container {
            if current.isNull { return true }
            container = current.link?.container
        }
        return dataIsNull
    }

    // MARK: Fields

    private func executeFields(
        _ objectType: GraphQLNamedType, _ parent: Parent, _ fields: [PlannedField], into container: ResultContainer
    ) {
        container.fields = fields
        container.slots.reserveCapacity(fields.count)
        for field in fields {
            let errorCount = errors.count
            executeField(objectType, parent, field, into: container)
            // As in graphql-js, a failure that nulls this object (or one above it)
            // ends the work on it: its remaining fields are not resolved.
            if errors.count != errorCount, container.isNull || dataIsNull || container.link.map(isAbandoned) == true { return }
        }
    }

    /// ExecuteField: resolve, then complete, one field of one object.
    private func executeField(
        _ objectType: GraphQLNamedType, _ parent: Parent, _ planned: PlannedField, into container: ResultContainer
    ) {
        if planned.isTypename {
            container.slots.append(.leaf(.string(objectType.name)))
            return
        }
        // Validation keeps unknown fields out; an unvalidated one is left out, as graphql-js does.
        guard let field = planned.definition else {
            container.slots.append(.omitted)
            return
        }
        let node = planned.nodes[0]
        container.slots.append(.pending)
        let index = container.slots.count - 1
        let link = Link(container: container, index: index, isNonNull: field.type.isNonNull)
        let identity = FieldIdentity(parentType: objectType, name: field.name)
        let resolved: Resolved
        do {
            let arguments = field.arguments.isEmpty && node.arguments.isEmpty
                ? [:]
                : try ArgumentValues.coerce(
                    definitions: field.arguments, arguments: node.arguments, variableValues: variableValues,
                    node: node.location, source: source
                )
            resolved = try resolve(field, objectType, parent, arguments, link)
        } catch {
            fail(error, planned.nodes, at: link)
            return
        }
        if let slot = complete(resolved, field.type, planned.nodes, identity, link: link) {
            container.slots[index] = slot
        }
    }

    private func resolve(
        _ field: GraphQLField, _ objectType: GraphQLNamedType, _ parent: Parent,
        _ arguments: [String: GraphQLValue], _ link: Link
    ) throws -> Resolved {
        if let resolver = schema.resolver(for: field) {
            let info = ResolveInfo(
                fieldName: field.name, parentType: objectType, returnType: field.type,
                parentPath: link.container.pathNode, key: link.container.isList ? .index(link.index) : .key(link.container.fields[link.index].key),
                schema: schema.schema, variableValues: variableValues
            )
            return try resolver(ResolverInput(parent: parent, arguments: arguments, context: context, info: info))
        }
        if objectType.name.hasPrefix("__") || field === MetaFields.schema || field === MetaFields.type {
            return try Introspection.resolve(field, parent, arguments, schema.schema)
        }
        return Self.defaultResolve(parent, field.name)
    }

    /// The response path of a position: keys and list indices from the root.
    private func path(of link: Link) -> [PathComponent] {
        var components: [PathComponent] = []
        var current: Link? = link
        while let position = current {
            let container = position.container
            components.append(container.isList ? .index(position.index) : .key(container.fields[position.index].key))
            current = container.link
        }
        return components.reversed()
    }

    /// graphql-js's default resolver: the parent's property of the field's name.
    static func defaultResolve(_ parent: Parent, _ name: String) -> Resolved {
        if case .object(let object) = parent, let readable = object as? FieldReadable {
            return readable.resolve(field: name)
        }
        guard let value = parent[member: name] else { return .null }
        return .value(value)
    }

    // MARK: Completing values

    /// CompleteValue: the resolved value as the field's type requires, or
    /// nil when it failed (the failure already handled at `link`).
    private func complete(
        _ resolved: Resolved, _ type: GraphQLType, _ fieldNodes: [Field], _ info: FieldIdentity, link: Link
    ) -> ResultContainer.Slot? {
        if case .async(let work) = resolved {
            pending.append(PendingField(work: work, deferred: nil, type: type, fieldNodes: fieldNodes, field: info, link: link))
            return .pending
        }
        if case .deferred(let value) = resolved {
            pending.append(PendingField(work: nil, deferred: value, type: type, fieldNodes: fieldNodes, field: info, link: link))
            return .pending
        }
        switch type {
        case .nonNull(let inner):
            guard let slot = complete(resolved, inner, fieldNodes, info, link: link) else { return nil }
            if case .null = slot {
                fail(
                    FieldFailure("Cannot return null for non-nullable field \(info.parentType.name).\(info.name)."),
                    fieldNodes, at: link
                )
                return nil
            }
            return slot
        case .list(let itemType):
            if case .null = resolved { return .null }
            if case .value(.null) = resolved { return .null }
            let items: [Resolved]
            switch resolved {
            case .list(let list): items = list
            case .value(.list(let values)): items = values.map(Resolved.value)
            default:
                fail(
                    GraphQLError(message: "Expected Iterable, but did not find one for field \"\(info.parentType.name).\(info.name)\"."),
                    fieldNodes, at: link
                )
                return nil
            }
            let list = ResultContainer(isList: true, link: link)
            list.slots = Array(repeating: .pending, count: items.count)
            for (index, item) in items.enumerated() {
                let itemLink = Link(container: list, index: index, isNonNull: itemType.isNonNull)
                if let slot = complete(item, itemType, fieldNodes, info, link: itemLink) {
                    list.slots[index] = slot
                }
                if list.isNull { return nil }
            }
            return .container(list)
        case .named(let named):
            switch resolved {
            case .null, .value(.null): return .null
            default: break
            }
            switch named.kind {
            case .scalar, .enum:
                let value: GraphQLValue
                switch resolved {
                case .value(let leaf): value = leaf
                default:
                    fail(GraphQLError(message: "\(named.name) cannot represent value: [object]"), fieldNodes, at: link)
                    return nil
                }
                switch ResultCoercion.serialize(value, named) {
                case .success(let serialized): return .leaf(serialized)
                case .failure(let error):
                    fail(GraphQLError(message: error.message), fieldNodes, at: link)
                    return nil
                }
            case .object:
                return completeObject(named, resolved, fieldNodes, info, link: link)
            case .interface, .union:
                guard let objectType = resolveAbstractType(named, resolved, fieldNodes, info, link: link) else { return nil }
                return completeObject(objectType, resolved, fieldNodes, info, link: link)
            case .inputObject:
                return nil
            }
        }
    }

    private func completeObject(
        _ objectType: GraphQLNamedType, _ resolved: Resolved, _ fieldNodes: [Field], _ info: FieldIdentity, link: Link
    ) -> ResultContainer.Slot? {
        let parent: Parent
        switch resolved {
        case .value(let value): parent = .value(value)
        case .object(let object, _): parent = .object(object)
        default: parent = .root
        }
        let object = ResultContainer(isList: false, link: link)
        executeFields(objectType, parent, subfields(objectType, fieldNodes), into: object)
        return object.isNull ? nil : .container(object)
    }

    /// ResolveAbstractType: the object type of a value of an interface or union.
    private func resolveAbstractType(
        _ abstractType: GraphQLNamedType, _ resolved: Resolved, _ fieldNodes: [Field], _ field: FieldIdentity, link: Link
    ) -> GraphQLNamedType? {
        var typename: String?
        let typeResolver = schema.typeResolver(for: abstractType)
        let info = typeResolver.map { _ in
            ResolveInfo(
                fieldName: field.name, parentType: field.parentType, returnType: .named(abstractType),
                parentPath: link.container.pathNode, key: link.container.isList ? .index(link.index) : .key(link.container.fields[link.index].key),
                schema: self.schema.schema, variableValues: variableValues
            )
        }
        switch resolved {
        case .object(let object, let explicit):
            typename = explicit ?? typeResolver.flatMap { $0(.object(object), info!) }
        case .value(let value):
            if let typeResolver {
                typename = typeResolver(.value(value), info!)
            } else if case .string(let name)? = value["__typename"] {
                typename = name
            }
        default:
            break
        }
        let schema = self.schema.schema
        guard let typename else {
            fail(GraphQLError(message: "Abstract type \"\(abstractType.name)\" must resolve to an Object type at runtime for field \"\(field.parentType.name).\(field.name)\". Either the \"\(abstractType.name)\" type should provide a \"resolveType\" function or each possible type should provide an \"isTypeOf\" function."), fieldNodes, at: link)
            return nil
        }
        guard let runtimeType = schema.type(named: typename) else {
            fail(GraphQLError(message: "Abstract type \"\(abstractType.name)\" was resolved to a type \"\(typename)\" that does not exist inside the schema."), fieldNodes, at: link)
            return nil
        }
        guard runtimeType.kind == .object else {
            fail(GraphQLError(message: "Abstract type \"\(abstractType.name)\" was resolved to a non-object type \"\(typename)\"."), fieldNodes, at: link)
            return nil
        }
        guard schema.isSubType(abstractType, runtimeType) else {
            fail(GraphQLError(message: "Runtime Object type \"\(typename)\" is not a possible type for \"\(abstractType.name)\"."), fieldNodes, at: link)
            return nil
        }
        return runtimeType
    }

    // MARK: Errors

    /// A field error: reported once, with the field's locations and path;
    /// then null at the position, or, where the position is non-null, at the
    /// nearest nullable position above it.
    private func fail(_ error: any Error, _ fieldNodes: [Field], at link: Link) {
        let path = path(of: link)
        var located: GraphQLError
        if let graphQLError = error as? GraphQLError {
            located = graphQLError
            if located.path == nil {
                if located.locations.isEmpty {
                    located.locations = fieldNodes.map { source.location(at: $0.location.start) }
                }
                located.path = path
            }
        } else if let failure = error as? FieldFailure {
            located = GraphQLError(message: failure.message, locations: fieldNodes.map { source.location(at: $0.location.start) }, path: path)
        } else {
            located = GraphQLError(
                message: String(describing: error), locations: fieldNodes.map { source.location(at: $0.location.start) }, path: path
            )
        }
        errors.append(located)
        propagateNull(from: link)
    }

    private func propagateNull(from link: Link) {
        var current = link
        while true {
            if !current.isNonNull {
                current.container.slots[current.index] = .null
                return
            }
            current.container.isNull = true
            guard let parent = current.container.link else {
                dataIsNull = true
                return
            }
            current = parent
        }
    }

    struct FieldFailure: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }
}

/// A Swift value that answers for its fields by name, so that an object type
/// reading fields by name can take it as a parent (as it takes JSON).
public protocol FieldReadable: Sendable {
    func resolve(field name: String) -> Resolved
}
