/// ExecuteField (spec §6.4.2): resolving one field of an object, with its
/// arguments coerced, and writing its key.
extension Executor {
    // MARK: Fields

    /// ExecuteField: resolve, then complete, one field of the object being
    /// written. False when the object fails with it (a non-null field failed),
    /// which, as in graphql-js, ends the work on the object.
    func executeField(
        _ objectType: GraphQLNamedType, _ parent: Parent, _ planned: PlannedField, members: [GraphQLValue.Member]?,
        first: inout Bool,
        instance: inout ParentInstance
    ) -> Bool {
        if writeKey(objectType, planned, first: &first) { return true }
        if let kind = planned.memberLeafKind, let members,
            Self.writeMember(planned, kind, of: members, to: &writer)
        {
            return true
        }
        frames[frames.count - 1].field = Unmanaged.passUnretained(planned)
        let valueStart = writer.count
        let completion: Completion
        do {
            // The untraced branches hand their value straight to `complete`:
            // a value kept in a local first was copied on its way there (a
            // retain and a release through the payload's witnesses for
            // every field). The traced one keeps it to ask whether it waits.
            if planned.resolution == .introspection {
                // Introspection values are completed without becoming `Resolved`.
                completion = completeIntrospected(try introspect(planned, instance.introspected(parent)), depth: 0, planned)
                return completion != .failed || finishFailedField(planned, valueStart)
            }
            if let instanceClass = planned.instanceClass, !planned.hasArguments, planned.instanceResolver != nil,
                let object = instance.object(of: parent, ifInstanceOf: instanceClass)
            {
                completion = complete(try object._withUnsafeGuaranteedRef { try planned.instanceResolver!($0) }, depth: 0, planned)
            } else if planned.resolution == .byName, let members {
                completion = complete(Self.member(planned, of: members), depth: 0, planned)
            } else if isTraced, planned.resolution == .bound {
                let started = ExecutionSpans.Start()
                let resolved = try resolve(planned, parent, &instance)
                // One that waits gets its span for the wait (`complete`).
                if !resolved.waits {
                    ExecutionSpans.resolved(since: started, parentType: objectType.name, field: planned.name) {
                        let (parentPath, key) = currentPosition()
                        return PathNode.components(parentPath, then: key)
                    }
                }
                completion = complete(resolved, depth: 0, planned)
            } else {
                completion = complete(try resolve(planned, parent, &instance), depth: 0, planned)
            }
        } catch {
            fail(error, planned.nodes)
            completion = .failed
        }
        return completion != .failed || finishFailedField(planned, valueStart)
    }

    /// Writes the field's key, after a comma unless it is the object's first;
    /// true when that is all there is to do: `__typename` is written with
    /// it, and a field the type lacks is left out. Validation keeps unknown
    /// fields out; an unvalidated one is left out, as graphql-js does.
    @inline(__always)
    func writeKey(_ objectType: GraphQLNamedType, _ planned: PlannedField, first: inout Bool) -> Bool {
        if planned.resolution == .omitted { return true }
        if !first { writer.byte(0x2C) }
        first = false
        writer.append(planned.jsonKey)
        guard planned.resolution == .typename else { return false }
        writer.string(objectType.name)
        return true
    }

    /// The non-null wrapper of CompleteValue: how the inner value was
    /// completed, except that a null there is a field error.
    @inline(__always)
    func completeNonNull(_ inner: Completion, _ field: PlannedField) -> Completion {
        guard inner == .null else { return inner }
        failNullInNonNull(field)
        return .failed
    }

    /// A field whose value failed: null where it may be, written from
    /// `valueStart`; false, for its object to fail in turn, where it is non-null.
    func finishFailedField(_ planned: PlannedField, _ valueStart: Int) -> Bool {
        if planned.isNonNull { return false }
        truncate(to: valueStart)
        writer.null()
        return true
    }

    func resolve(_ planned: PlannedField, _ parent: Parent, _ instance: inout ParentInstance) throws -> Resolved {
        let arguments = planned.hasArguments ? try coerceArguments(planned) : [:]
        switch planned.resolution {
        case .bound:
            if let resolver = planned.parentResolver { return try resolver(parent) }
            let (parentPath, key) = currentPosition()
            let info = ResolveInfo(field: planned.info!, parentPath: parentPath, key: key)
            let input = ResolverInput(parent: parent, arguments: arguments, context: context, info: info)
            if let resolver = planned.instanceInputResolver, let object = instance.object(of: parent, ifInstanceOf: planned.instanceClass!)
            {
                return try object._withUnsafeGuaranteedRef { try resolver($0, input) }
            }
            return try planned.inputResolver!(input)
        case .introspection:
            return try introspect(planned, instance.introspected(parent)).resolved
        case .byName, .typename, .omitted:
            return Self.defaultResolve(parent, planned.name)
        }
    }

    /// CoerceArgumentValues for a field of the plan.
    /// They depend only on the field's node and the operation's variables,
    /// so they are the same for every object: coerced once per plan.
    func coerceArguments(_ planned: PlannedField) throws -> [String: GraphQLValue] {
        if let coerced = planned.coercedArguments { return coerced }
        let node = planned.nodes[0]
        let coerced = try ArgumentValues.coerce(
            definitions: planned.definition!.arguments, arguments: node.arguments, variableValues: variableValues,
            node: node.location, source: source
        )
        planned.coercedArguments = coerced
        return coerced
    }

    /// graphql-js's default resolver over a JSON object: its member of the field's name.
    @inline(__always)
    static func member(_ planned: PlannedField, of members: [GraphQLValue.Member]) -> Resolved {
        guard let index = memberIndex(planned, members) else { return .null }
        return .value(members[index].value)
    }

    @inline(__always)
    static func memberIndex(_ planned: PlannedField, _ members: [GraphQLValue.Member]) -> Int? {
        let name = planned.name
        let hint = planned.memberHint
        if hint < members.count, members[hint].name == name { return hint }
        for index in members.indices where members[index].name == name {
            planned.memberHint = index
            return index
        }
        return nil
    }

    /// Writes a scalar member that already has its type's form (what result
    /// coercion would return unchanged), skipping the general path; false,
    /// having written nothing, for anything else.
    @inline(__always)
    static func writeMember(
        _ planned: PlannedField, _ kind: ResultCoercion.LeafKind, of members: [GraphQLValue.Member], to writer: inout JSONWriter
    ) -> Bool {
        guard let index = memberIndex(planned, members), ResultCoercion.isSerialized(members[index].value, kind) else {
            return false
        }
        // Only scalars pass the check above: the general `value` (which
        // recurses into lists and objects) is not needed.
        switch members[index].value {
        case .string(let text): writer.string(text)
        case .int(let int): writer.int(int)
        case .float(let double): writer.double(double)
        case .boolean(let boolean): writer.bool(boolean)
        default: return false
        }
        return true
    }

    /// graphql-js's default resolver: the parent's property of the field's name.
    static func defaultResolve(_ parent: Parent, _ name: String) -> Resolved {
        if case .object(let object) = parent {
            return (object as? FieldReadable)?.resolve(field: name) ?? .null
        }
        return parent[member: name].map(Resolved.value) ?? .null
    }
}
