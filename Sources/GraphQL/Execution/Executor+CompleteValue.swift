/// CompleteValue (spec §6.4.3): a resolved value written as its field's
/// type requires, lists item by item, objects through their selections.
extension Executor {
    // MARK: Completing values

    /// CompleteValue: writes the resolved value as the field's type requires,
    /// or leaves a hole for it when it must wait.
    func complete(_ resolved: consuming Resolved, depth: Int, _ field: PlannedField) -> Completion {
        // One switch that consumes the value: asking `waits` first copied it
        // (an existential payload makes every copy go through its witnesses).
        switch consume resolved {
        case .async(let work):
            if isTraced {
                let (parentPath, key) = currentPosition()
                let traced = ExecutionSpans.resolving(
                    work, parentType: field.parentType.name, field: field.name, path: PathNode.components(parentPath, then: key))
                leaveHole(.work(traced), depth: depth, field)
            } else {
                leaveHole(.work(work), depth: depth, field)
            }
            return .written
        case .deferred(let value):
            // A value that must wait is completed later, against the whole type.
            leaveHole(.deferred(value), depth: depth, field)
            return .written
        case let ready:
            return completeReady(ready, depth: depth, field)
        }
    }

    /// CompleteValue for a value that is here (not `.async` or `.deferred`).
    private func completeReady(_ resolved: consuming Resolved, depth: Int, _ field: PlannedField) -> Completion {
        if depth < field.wrappers.count {
            switch field.wrappers[depth] {
            case .nonNull:
                return completeNonNull(completeReady(resolved, depth: depth + 1, field), field)
            case .list:
                let isNonNull = field.isNonNull(at: depth - 1)
                if incremental != nil, !field.wrappers[..<depth].contains(.list) {
                    let stream: StreamUsage?
                    do {
                        stream = try streamUsage(field)
                    } catch {
                        fail(error, field.nodes)
                        return .failed
                    }
                    if let stream {
                        switch consume resolved {
                        case .null, .value(.null):
                            writer.null()
                            return .null
                        case .list(let items):
                            return completeStreamedList(items.count, depth: depth + 1, field, isNonNull: isNonNull, stream: stream) {
                                items[$0]
                            }
                        case .value(.list(let values)):
                            return completeStreamedList(values.count, depth: depth + 1, field, isNonNull: isNonNull, stream: stream) {
                                .value(values[$0])
                            }
                        default:
                            fail(
                                GraphQLError(
                                    message: "Expected Iterable, but did not find one for field \"\(field.parentType.name).\(field.name)\"."
                                ),
                                field.nodes
                            )
                            return .failed
                        }
                    }
                }
                switch consume resolved {
                case .null, .value(.null):
                    writer.null()
                    return .null
                case .list(let items):
                    return completeList(items.count, depth: depth + 1, field, isNonNull: isNonNull) { items[$0] }
                case .value(.list(let values)):
                    // JSON objects as items of an object type: each is the parent
                    // of the item's selections as it stands, no `Resolved` between.
                    if field.namedType.kind == .object,
                        depth + 1 == field.wrappers.count
                            || (depth + 2 == field.wrappers.count && field.wrappers[depth + 1] == .nonNull)
                    {
                        return completeObjectList(values, depth: depth + 1, field, isNonNull: isNonNull)
                    }
                    return completeList(values.count, depth: depth + 1, field, isNonNull: isNonNull) { .value(values[$0]) }
                default:
                    fail(
                        GraphQLError(
                            message: "Expected Iterable, but did not find one for field \"\(field.parentType.name).\(field.name)\"."),
                        field.nodes
                    )
                    return .failed
                }
            }
        }
        let isNonNull = field.isNonNull(at: depth - 1)
        switch consume resolved {
        case .null, .value(.null), .async, .deferred:
            writer.null()
            return .null
        case .value(let value):
            if let leafKind = field.leafKind {
                // The values resolvers return most are written as they are,
                // without `serialize`'s copy of them.
                if ResultCoercion.isSerialized(value, leafKind) {
                    writer.value(value)
                    return .written
                }
                if leafKind == .enum, case .enum(let name) = value, name == field.lastEnumValue {
                    writer.string(name)
                    return .written
                }
                switch ResultCoercion.serialize(value, leafKind, field.namedType) {
                case .success(let serialized):
                    if leafKind == .enum, case .enum(let name) = serialized { field.lastEnumValue = name }
                    writer.value(serialized)
                    return .written
                case .failure(let error):
                    fail(GraphQLError(message: error.message), field.nodes)
                    return .failed
                }
            }
            return completeComposite(field.namedType, .value(value), nil, field, isNonNull: isNonNull, members: value.objectMembers)
        case .object(let object, let typename):
            guard field.leafKind == nil else {
                fail(GraphQLError(message: "\(field.namedType.name) cannot represent value: [object]"), field.nodes)
                return .failed
            }
            let instance = ParentInstance(object: object)
            return completeComposite(field.namedType, .object(object), typename, field, isNonNull: isNonNull, instance: instance)
        case .list:
            guard field.leafKind == nil else {
                fail(GraphQLError(message: "\(field.namedType.name) cannot represent value: [object]"), field.nodes)
                return .failed
            }
            return completeComposite(field.namedType, .root, nil, field, isNonNull: isNonNull)
        }
    }

    /// CompleteValue's list step (spec §6.4.3), which every kind of list
    /// goes through: opens the list, lets `items` complete each item with
    /// `completeListItem`, and closes it, or unwinds it when an item failed
    /// the whole list.
    @inline(__always)
    func completeListItems(
        itemDepth: Int, _ field: PlannedField, isNonNull: Bool, _ items: (_ itemIsNonNull: Bool) -> Bool
    ) -> Completion {
        openFrame(isList: true, isNonNull: isNonNull)
        guard items(field.isNonNull(at: itemDepth)) else {
            frames.removeLast()
            return .failed
        }
        closeFrame()
        return .written
    }

    /// One item of a list: its comma and its index in the path, then
    /// `complete`. A failed item is null where items may be; where they may
    /// not (or the execution stopped) it fails the list: false.
    @inline(__always)
    func completeListItem(at index: Int, itemIsNonNull: Bool, _ complete: () -> Completion) -> Bool {
        if index > 0 { writer.byte(0x2C) }
        frames[frames.count - 1].index = index
        let itemStart = writer.count
        guard complete() == .failed || isStopped else { return true }
        if itemIsNonNull || isStopped { return false }
        truncate(to: itemStart)
        writer.null()
        return true
    }

    /// The items of a list, each completed as the item type requires.
    func completeList(
        _ count: Int, depth: Int, _ field: PlannedField, isNonNull: Bool, _ item: (Int) -> Resolved
    ) -> Completion {
        completeListItems(itemDepth: depth, field, isNonNull: isNonNull) { itemIsNonNull in
            for index in 0..<count {
                guard completeListItem(at: index, itemIsNonNull: itemIsNonNull, { complete(item(index), depth: depth, field) })
                else { return false }
            }
            return true
        }
    }

    /// A JSON list whose items are objects of the field's object type (the
    /// item type is that type or that type non-null): each item goes
    /// straight to its selections, no `Resolved` between.
    func completeObjectList(
        _ values: [GraphQLValue], depth: Int, _ field: PlannedField, isNonNull: Bool
    ) -> Completion {
        completeListItems(itemDepth: depth, field, isNonNull: isNonNull) { itemIsNonNull in
            for index in values.indices {
                let completed = completeListItem(at: index, itemIsNonNull: itemIsNonNull) {
                    if case .null = values[index] {
                        guard !itemIsNonNull else {
                            failNullInNonNull(field)
                            return .failed
                        }
                        writer.null()
                        return .null
                    }
                    return completeComposite(
                        field.namedType, .value(values[index]), nil, field, isNonNull: itemIsNonNull, members: values[index].objectMembers)
                }
                guard completed else { return false }
            }
            return true
        }
    }

    /// An object, interface or union value: its object type's selections
    /// executed on it. `members` (a JSON object's) and `instance` are what
    /// the caller knows of the parent already: matching them out of the
    /// `Parent` again for each object copied it.
    func completeComposite(
        _ named: GraphQLNamedType, _ parent: Parent, _ typename: String?, _ field: PlannedField, isNonNull: Bool,
        members: [GraphQLValue.Member]? = nil, instance: ParentInstance = ParentInstance()
    ) -> Completion {
        switch named.kind {
        case .object:
            return completeObject(named, parent, field, isNonNull: isNonNull, members: members, instance: instance)
        case .interface, .union:
            guard let objectType = resolveAbstractType(named, parent, typename, field) else { return .failed }
            return completeObject(objectType, parent, field, isNonNull: isNonNull, members: members, instance: instance)
        default:
            writer.null()
            return .null
        }
    }

    /// A value of an object type: the type's selections executed on it.
    /// (The type is a parameter, borrowed, rather than a local: a local
    /// was retained and released for every object.)
    @inline(__always)
    func completeObject(
        _ objectType: GraphQLNamedType, _ parent: Parent, _ field: PlannedField, isNonNull: Bool, members: [GraphQLValue.Member]?,
        instance: ParentInstance
    ) -> Completion {
        guard let fields = plannedSubfields(objectType, of: field) else { return .failed }
        openFrame(isList: false, isNonNull: isNonNull)
        if let incremental, let deferral = incremental.deferrals[field.subplan] {
            let (saved, inline) = beginDeferral(deferral, objectType, parent)
            defer { incremental.deferMap = saved }
            return executeFields(objectType, parent, inline.isEmpty ? fields : fields + inline, members: members, instance: instance)
        }
        return executeFields(objectType, parent, fields, members: members, instance: instance)
    }

    /// ExecuteFields on the object whose frame is open: each field in turn,
    /// then the frame closed, or unwound when a field fails the object.
    /// `members`, a JSON object parent's, are lent to each field.
    @inline(__always)
    func executeFields(
        _ objectType: GraphQLNamedType, _ parent: Parent, _ fields: [PlannedField], members: [GraphQLValue.Member]?,
        instance: consuming ParentInstance
    ) -> Completion {
        var first = true
        for index in fields.indices {
            // The plan holds its fields for the whole execution: borrowing each
            // spares a retain and a release per field of every object.
            let succeeded = Unmanaged.passUnretained(fields[index])._withUnsafeGuaranteedRef { planned in
                executeField(objectType, parent, planned, members: members, first: &first, instance: &instance)
            }
            guard succeeded, !isStopped else {
                frames.removeLast()
                return .failed
            }
        }
        closeFrame()
        return .written
    }

    /// ResolveAbstractType: the object type of a value of an interface or union.
    func resolveAbstractType(
        _ abstractType: GraphQLNamedType, _ parent: Parent, _ explicit: String?, _ field: PlannedField
    ) -> GraphQLNamedType? {
        var typename = explicit
        if typename == nil {
            if let typeResolver = schema.typeResolver(for: abstractType) {
                let (parentPath, key) = currentPosition()
                let info = ResolveInfo(
                    field: field.info
                        ?? FieldInfo(
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
            fail(
                GraphQLError(
                    message:
                        "Abstract type \"\(abstractType.name)\" must resolve to an Object type at runtime for field \"\(field.parentType.name).\(field.name)\". Either the \"\(abstractType.name)\" type should provide a \"resolveType\" function or each possible type should provide an \"isTypeOf\" function."
                ), field.nodes)
            return nil
        }
        guard let runtimeType = schema.type(named: typename) else {
            fail(
                GraphQLError(
                    message:
                        "Abstract type \"\(abstractType.name)\" was resolved to a type \"\(typename)\" that does not exist inside the schema."
                ), field.nodes)
            return nil
        }
        guard runtimeType.kind == .object else {
            fail(
                GraphQLError(message: "Abstract type \"\(abstractType.name)\" was resolved to a non-object type \"\(typename)\"."),
                field.nodes)
            return nil
        }
        guard schema.isSubType(abstractType, runtimeType) else {
            fail(
                GraphQLError(message: "Runtime Object type \"\(typename)\" is not a possible type for \"\(abstractType.name)\"."),
                field.nodes)
            return nil
        }
        return runtimeType
    }
}
