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

/// The parent as a class instance, worked out for the first field that
/// wants it and reused by the object's other fields.
struct ParentInstance {
    private var checked = false
    private var object: AnyObject?
    private var objectClass: ObjectIdentifier?

    mutating func object(of parent: Parent, ifInstanceOf expected: ObjectIdentifier) -> AnyObject? {
        if !checked {
            checked = true
            if case .object(let value) = parent {
                let dynamicType = type(of: value)
                if dynamicType is AnyClass {
                    // `as AnyObject` would look for bridging conformances first;
                    // a class instance already is the reference.
                    func reference<Instance>(_ instance: Instance) -> AnyObject {
                        unsafeBitCast(instance, to: AnyObject.self)
                    }
                    object = reference(value)
                    objectClass = ObjectIdentifier(dynamicType)
                }
            }
        }
        return objectClass == expected ? object : nil
    }
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
        var waiting: Waiting
        /// How many of the field's type wrappers are outside the value.
        var depth: Int
        unowned(unsafe) var field: PlannedField
        var link: Link

        enum Waiting {
            case work(@Sendable () async throws -> Resolved)
            case deferred(any DeferredValue)
        }
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
            var instance = ParentInstance()
            for field in fields {
                executeField(rootType, rootValue, field, into: root, instance: &instance)
                await drain()
            }
        } else {
            executeFields(rootType, rootValue, fields, into: root)
            await drain()
        }
        return ExecutionResult(tree: dataIsNull ? nil : root, errors: errors)
    }

    /// A field to execute on an object type: its response key, its nodes,
    /// and everything about resolving it that is the same for every object
    /// (worked out once per type and selection, since every object of a list
    /// runs the same plan).
    final class PlannedField {
        let key: String
        let nodes: [Field]
        /// Nil for `__typename` and for fields the type lacks.
        let definition: GraphQLField?
        let parentType: GraphQLNamedType
        let resolution: Resolution
        // The bound resolver, unwrapped once: reading a stored closure costs
        // less than copying it out of an enum's payload for every object.
        let parentResolver: ParentResolver?
        let inputResolver: FieldResolver?
        /// For a resolver bound to a Swift class: the class, and the resolver
        /// that takes its instances (`parentResolver` takes the rest).
        let instanceClass: ObjectIdentifier?
        let instanceResolver: ExecutableSchema.InstanceResolver?
        /// The type's wrappers from the outside in, and the named type within
        /// them: completing a value walks these instead of the type's enum.
        let wrappers: [TypeWrapper]
        let namedType: GraphQLNamedType
        /// How a leaf value serialises; nil for object, interface and union types.
        let leafKind: ResultCoercion.LeafKind?
        /// Whether there are arguments to coerce.
        let hasArguments: Bool
        /// The object-independent part of a resolver's info.
        let info: FieldInfo?
        /// The plan of this field's selections on the object type it last
        /// completed (an index into the executor's plans), so that the
        /// objects of a list look their plan up without hashing.
        var subplanType: ObjectIdentifier?
        var subplan = 0

        /// `"key":`, escaped once for every object that writes it; owned by
        /// the plan, so writing it costs no reference counting.
        let jsonKey: UnsafeBufferPointer<UInt8>

        enum Resolution {
            case typename
            /// A field the object's type does not have (an unvalidated document): left out.
            case omitted
            /// `parentResolver` or `inputResolver`.
            case bound
            case introspection
            /// graphql-js's default resolver: the parent's member of the field's name.
            case byName
        }

        init(
            key: String, nodes: [Field], definition: GraphQLField?, parentType: GraphQLNamedType,
            resolution: Resolution, info: FieldInfo?, resolver: ExecutableSchema.BoundResolver? = nil
        ) {
            self.key = key
            self.nodes = nodes
            self.definition = definition
            self.parentType = parentType
            self.resolution = resolution
            switch resolver {
            case .parent(let resolver):
                (parentResolver, inputResolver, instanceClass, instanceResolver) = (resolver, nil, nil, nil)
            case .input(let resolver):
                (parentResolver, inputResolver, instanceClass, instanceResolver) = (nil, resolver, nil, nil)
            case .instance(let objectClass, let resolver, let fallback):
                (parentResolver, inputResolver, instanceClass, instanceResolver) = (fallback, nil, objectClass, resolver)
            case nil:
                (parentResolver, inputResolver, instanceClass, instanceResolver) = (nil, nil, nil, nil)
            }
            self.info = info
            // `__typename` and omitted fields are never completed: any type does for them.
            let type = definition?.type ?? .nonNull(.named(parentType))
            // The common shapes share their arrays: planning allocates none for them.
            switch type {
            case .named(let named): (wrappers, namedType) = (TypeWrapper.none, named)
            case .nonNull(.named(let named)): (wrappers, namedType) = (TypeWrapper.shapes[0], named)
            case .list(.named(let named)): (wrappers, namedType) = (TypeWrapper.shapes[1], named)
            case .nonNull(.list(.named(let named))): (wrappers, namedType) = (TypeWrapper.shapes[2], named)
            case .nonNull(.list(.nonNull(.named(let named)))): (wrappers, namedType) = (TypeWrapper.shapes[3], named)
            case .list(.nonNull(.named(let named))): (wrappers, namedType) = (TypeWrapper.shapes[4], named)
            default:
                var wrappers: [TypeWrapper] = []
                var inner = type
                while true {
                    switch inner {
                    case .nonNull(let wrapped):
                        wrappers.append(.nonNull)
                        inner = wrapped
                        continue
                    case .list(let wrapped):
                        wrappers.append(.list)
                        inner = wrapped
                        continue
                    case .named(let named):
                        namedType = named
                    }
                    break
                }
                self.wrappers = wrappers
            }
            leafKind = namedType.kind == .scalar || namedType.kind == .enum ? ResultCoercion.LeafKind(namedType) : nil
            hasArguments = !(definition?.arguments.isEmpty ?? true) || !nodes[0].arguments.isEmpty
            var writer = JSONWriter(capacity: key.utf8.count + 3)
            writer.string(key)
            writer.raw(":")
            let keyBytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: writer.bytes.count)
            _ = keyBytes.initialize(from: writer.bytes)
            jsonKey = UnsafeBufferPointer(keyBytes)
        }

        deinit {
            jsonKey.deallocate()
        }

        /// The field's name, for messages.
        var name: String { definition?.name ?? nodes[0].name.value }

        var isNonNull: Bool { isNonNull(at: 0) }

        /// Whether the type at `depth` wrappers in is non-null.
        @inline(__always)
        func isNonNull(at depth: Int) -> Bool {
            depth < wrappers.count && wrappers[depth] == .nonNull
        }

        enum TypeWrapper {
            case nonNull, list

            static let none: [TypeWrapper] = []
            /// `T!`, `[T]`, `[T]!`, `[T!]!` and `[T!]`.
            static let shapes: [[TypeWrapper]] = [[.nonNull], [.list], [.nonNull, .list], [.nonNull, .list, .nonNull], [.list, .nonNull]]
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
            guard name != "__typename" else {
                return PlannedField(
                    key: grouped.keys[index], nodes: nodes, definition: nil, parentType: type, resolution: .typename, info: nil
                )
            }
            guard let field = schema.schema.field(named: name, on: type) else {
                return PlannedField(
                    key: grouped.keys[index], nodes: nodes, definition: nil, parentType: type, resolution: .omitted, info: nil
                )
            }
            let resolution: PlannedField.Resolution
            let resolver = schema.resolver(for: field)
            if resolver != nil {
                resolution = .bound
            } else if type.name.hasPrefix("__") || field === MetaFields.schema || field === MetaFields.type {
                resolution = .introspection
            } else {
                resolution = .byName
            }
            // What the field's value will be asked for, worked out only if a
            // resolver looks ahead (only on object types).
            var lookahead: (@Sendable () -> Set<String>)?
            if case .input? = resolver, field.type.namedType.kind == .object {
                let (collector, named) = (collector, field.type.namedType)
                lookahead = { Set(collector.collectSubfields(named, nodes).fields.map { $0[0].name.value }) }
            }
            let info = FieldInfo(
                fieldName: field.name, parentType: type, returnType: field.type, schema: schema.schema,
                variableValues: variableValues, lookahead: lookahead
            )
            return PlannedField(
                key: grouped.keys[index], nodes: nodes, definition: field, parentType: type, resolution: resolution, info: info,
                resolver: resolver
            )
        }
    }

    private var subplans: [[PlannedField]] = []

    private func subfields(_ type: GraphQLNamedType, of field: PlannedField) -> [PlannedField] {
        let identity = ObjectIdentifier(type)
        if field.subplanType == identity { return subplans[field.subplan] }
        let planned = subfields(type, field.nodes)
        field.subplanType = identity
        field.subplan = subplans.count
        subplans.append(planned)
        return planned
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
                var lastBatch: ObjectIdentifier?
                for index in batch.indices {
                    switch batch[index].waiting {
                    case .work(let work):
                        group.addTask {
                            do { return (index, .success(try await work())) } catch { return (index, .failure(error)) }
                        }
                    case .deferred(let value):
                        let runner = value.batch
                        let identity = ObjectIdentifier(runner)
                        // Loads of one loader come in runs; the set is for the rest.
                        guard identity != lastBatch else { continue }
                        lastBatch = identity
                        if batches.insert(identity).inserted {
                            group.addTask {
                                await runner.run()
                                return nil
                            }
                        }
                    }
                }
                var outcomes = [Result<Resolved, any Error>?](repeating: nil, count: batch.count)
                for await finished in group {
                    if let (index, outcome) = finished { outcomes[index] = outcome }
                }
                return outcomes
            }
            for index in batch.indices {
                let link = batch[index].link
                guard !isAbandoned(link) else { continue }
                let outcome: Result<Resolved, any Error>
                switch batch[index].waiting {
                case .work:
                    outcome = outcomes[index].take()!
                case .deferred(let value):
                    outcome = Result { try value.resolve() }
                }
                let field = batch[index].field
                switch outcome {
                case .success(let resolved):
                    if let slot = complete(resolved, depth: batch[index].depth, field, link: link) {
                        link.container.slots[link.index] = slot
                    }
                case .failure(let error):
                    fail(error, field.nodes, at: link)
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
        var instance = ParentInstance()
        for field in fields {
            let errorCount = errors.count
            executeField(objectType, parent, field, into: container, instance: &instance)
            // As in graphql-js, a failure that nulls this object (or one above it)
            // ends the work on it: its remaining fields are not resolved.
            if errors.count != errorCount, container.isNull || dataIsNull || container.link.map(isAbandoned) == true { return }
        }
    }

    /// ExecuteField: resolve, then complete, one field of one object.
    private func executeField(
        _ objectType: GraphQLNamedType, _ parent: Parent, _ planned: PlannedField, into container: ResultContainer,
        instance: inout ParentInstance
    ) {
        switch planned.resolution {
        case .typename:
            container.slots.append(.leaf(.string(objectType.name)))
            return
        case .omitted:
            // Validation keeps unknown fields out; an unvalidated one is left out, as graphql-js does.
            container.slots.append(.omitted)
            return
        default:
            break
        }
        let index = container.slots.count
        container.slots.append(.pending)
        let link = Link(container: container, index: index, isNonNull: planned.isNonNull)
        let resolved: Resolved
        do {
            if let instanceClass = planned.instanceClass, !planned.hasArguments,
               let object = instance.object(of: parent, ifInstanceOf: instanceClass) {
                resolved = try planned.instanceResolver!(object)
            } else {
                resolved = try resolve(planned, parent, link)
            }
        } catch {
            fail(error, planned.nodes, at: link)
            return
        }
        if let slot = complete(resolved, depth: 0, planned, link: link) {
            container.slots[index] = slot
        }
    }

    private func resolve(_ planned: PlannedField, _ parent: Parent, _ link: Link) throws -> Resolved {
        let arguments = planned.hasArguments ? try coerceArguments(planned) : [:]
        switch planned.resolution {
        case .bound:
            if let resolver = planned.parentResolver { return try resolver(parent) }
            let resolver = planned.inputResolver!
            let container = link.container
            let info = ResolveInfo(
                field: planned.info!, parentPath: container.pathNode,
                key: container.isList ? .index(link.index) : .key(planned.key)
            )
            return try resolver(ResolverInput(parent: parent, arguments: arguments, context: context, info: info))
        case .introspection:
            return try Introspection.resolve(planned.definition!, parent, arguments, schema.schema)
        case .byName, .typename, .omitted:
            return Self.defaultResolve(parent, planned.definition!.name)
        }
    }

    /// CoerceArgumentValues for a field of the plan.
    private func coerceArguments(_ planned: PlannedField) throws -> [String: GraphQLValue] {
        let node = planned.nodes[0]
        return try ArgumentValues.coerce(
            definitions: planned.definition!.arguments, arguments: node.arguments, variableValues: variableValues,
            node: node.location, source: source
        )
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
        if case .object(let object) = parent {
            return (object as? FieldReadable)?.resolve(field: name) ?? .null
        }
        return parent[member: name].map(Resolved.value) ?? .null
    }

    // MARK: Completing values

    /// CompleteValue: the resolved value as the field's type requires, or
    /// nil when it failed (the failure already handled at `link`).
    private func complete(
        _ resolved: consuming Resolved, depth: Int, _ field: PlannedField, link: Link
    ) -> ResultContainer.Slot? {
        // A value that must wait is completed later, against the whole type.
        if resolved.waits {
            switch consume resolved {
            case .async(let work):
                pending.append(PendingField(waiting: .work(work), depth: depth, field: field, link: link))
            case .deferred(let value):
                pending.append(PendingField(waiting: .deferred(value), depth: depth, field: field, link: link))
            default:
                break
            }
            return .pending
        }
        if depth < field.wrappers.count {
            switch field.wrappers[depth] {
            case .nonNull:
                guard let slot = complete(resolved, depth: depth + 1, field, link: link) else { return nil }
                if case .null = slot {
                    fail(
                        FieldFailure("Cannot return null for non-nullable field \(field.parentType.name).\(field.name)."),
                        field.nodes, at: link
                    )
                    return nil
                }
                return slot
            case .list:
                switch consume resolved {
                case .null, .value(.null):
                    return .null
                case .list(let items):
                    return completeList(items.count, depth: depth + 1, field, link: link) { items[$0] }
                case .value(.list(let values)):
                    return completeList(values.count, depth: depth + 1, field, link: link) { .value(values[$0]) }
                default:
                    fail(
                        GraphQLError(message: "Expected Iterable, but did not find one for field \"\(field.parentType.name).\(field.name)\"."),
                        field.nodes, at: link
                    )
                    return nil
                }
            }
        }
        switch consume resolved {
        case .null, .value(.null), .async, .deferred:
            return .null
        case .value(let value):
            if let leafKind = field.leafKind {
                switch ResultCoercion.serialize(value, leafKind, field.namedType) {
                case .success(let serialized): return .leaf(serialized)
                case .failure(let error):
                    fail(GraphQLError(message: error.message), field.nodes, at: link)
                    return nil
                }
            }
            return completeComposite(field.namedType, .value(value), nil, field, link: link)
        case .object(let object, let typename):
            guard field.leafKind == nil else {
                fail(GraphQLError(message: "\(field.namedType.name) cannot represent value: [object]"), field.nodes, at: link)
                return nil
            }
            return completeComposite(field.namedType, .object(object), typename, field, link: link)
        case .list:
            guard field.leafKind == nil else {
                fail(GraphQLError(message: "\(field.namedType.name) cannot represent value: [object]"), field.nodes, at: link)
                return nil
            }
            return completeComposite(field.namedType, .root, nil, field, link: link)
        }
    }

    /// The items of a list, each completed as the item type requires.
    private func completeList(
        _ count: Int, depth: Int, _ field: PlannedField, link: Link, _ item: (Int) -> Resolved
    ) -> ResultContainer.Slot? {
        let list = ResultContainer(isList: true, link: link)
        list.slots = Array(repeating: .pending, count: count)
        let isNonNull = field.isNonNull(at: depth)
        for index in 0..<count {
            let itemLink = Link(container: list, index: index, isNonNull: isNonNull)
            if let slot = complete(item(index), depth: depth, field, link: itemLink) {
                list.slots[index] = slot
            }
            if list.isNull { return nil }
        }
        return .container(list)
    }

    /// An object, interface or union value: its object type's selections
    /// executed on it.
    private func completeComposite(
        _ named: GraphQLNamedType, _ parent: Parent, _ typename: String?, _ field: PlannedField, link: Link
    ) -> ResultContainer.Slot? {
        let objectType: GraphQLNamedType
        switch named.kind {
        case .object:
            objectType = named
        case .interface, .union:
            guard let resolvedType = resolveAbstractType(named, parent, typename, field, link: link) else { return nil }
            objectType = resolvedType
        default:
            return nil
        }
        let object = ResultContainer(isList: false, link: link)
        executeFields(objectType, parent, subfields(objectType, of: field), into: object)
        return object.isNull ? nil : .container(object)
    }

    /// ResolveAbstractType: the object type of a value of an interface or union.
    private func resolveAbstractType(
        _ abstractType: GraphQLNamedType, _ parent: Parent, _ explicit: String?, _ field: PlannedField, link: Link
    ) -> GraphQLNamedType? {
        var typename = explicit
        if typename == nil {
            if let typeResolver = schema.typeResolver(for: abstractType) {
                let container = link.container
                let parentPath = container.pathNode
                let key: PathComponent = container.isList ? .index(link.index) : .key(container.fields[link.index].key)
                let info = ResolveInfo(
                    field: field.info ?? FieldInfo(
                        fieldName: field.name, parentType: field.parentType, returnType: .named(abstractType),
                        schema: schema.schema, variableValues: variableValues
                    ),
                    parentPath: parentPath, key: key
                )
                typename = typeResolver(parent, info)
            } else if case .value(let value) = parent, case .string(let name)? = value["__typename"] {
                typename = name
            }
        }
        let schema = self.schema.schema
        guard let typename else {
            fail(GraphQLError(message: "Abstract type \"\(abstractType.name)\" must resolve to an Object type at runtime for field \"\(field.parentType.name).\(field.name)\". Either the \"\(abstractType.name)\" type should provide a \"resolveType\" function or each possible type should provide an \"isTypeOf\" function."), field.nodes, at: link)
            return nil
        }
        guard let runtimeType = schema.type(named: typename) else {
            fail(GraphQLError(message: "Abstract type \"\(abstractType.name)\" was resolved to a type \"\(typename)\" that does not exist inside the schema."), field.nodes, at: link)
            return nil
        }
        guard runtimeType.kind == .object else {
            fail(GraphQLError(message: "Abstract type \"\(abstractType.name)\" was resolved to a non-object type \"\(typename)\"."), field.nodes, at: link)
            return nil
        }
        guard schema.isSubType(abstractType, runtimeType) else {
            fail(GraphQLError(message: "Runtime Object type \"\(typename)\" is not a possible type for \"\(abstractType.name)\"."), field.nodes, at: link)
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
