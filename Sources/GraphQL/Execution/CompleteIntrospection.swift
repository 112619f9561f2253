/// Completing the values of introspection fields: as `complete` completes
/// a `Resolved`, but from `Introspection.Value`, whose objects are the
/// schema's own and whose lists are the schema's own arrays. Introspecting
/// a large schema is almost all type references; going through `Resolved`
/// cost a boxed existential for each and an array for each list.
///
/// The fields of introspection types have no resolvers of their own
/// (binding one is refused), so an introspection object's fields are read
/// off the schema, or are `__typename`.
extension Executor {
    /// An introspection field's value on `parent`.
    func introspect(_ planned: PlannedField, _ parent: Introspection.Introspected) throws -> Introspection.Value {
        guard let name = planned.introspectionField else { return .null }
        guard planned.hasArguments else { return Introspection.resolve(name, parent, Introspection.Arguments(), schema.schema) }
        if planned.introspectionArguments == nil {
            planned.introspectionArguments = Introspection.Arguments(try coerceArguments(planned))
        }
        return Introspection.resolve(name, parent, planned.introspectionArguments!, schema.schema)
    }

    /// CompleteValue for an introspection value. A value of another shape
    /// than the field's type (which the introspection types do not give)
    /// takes the general path, errors included.
    func completeIntrospected(_ value: Introspection.Value, depth: Int, _ field: PlannedField) -> Completion {
        if depth < field.wrappers.count {
            switch field.wrappers[depth] {
            case .nonNull:
                return completeNonNull(completeIntrospected(value, depth: depth + 1, field), field)
            case .list:
                switch value {
                case .null:
                    writer.null()
                    return .null
                case .list(let items):
                    return completeIntrospectedList(items, depth: depth + 1, field, isNonNull: field.isNonNull(at: depth - 1))
                default:
                    return complete(value.resolved, depth: depth, field)
                }
            }
        }
        switch value {
        case .null:
            writer.null()
            return .null
        case .string(let text) where field.leafKind == .string:
            writer.string(text)
        case .boolean(let boolean) where field.leafKind == .boolean:
            writer.bool(boolean)
        case .enumValue(let name) where field.leafKind == .enum:
            // The names of `__TypeKind` and `__DirectiveLocation` values, as the schema has them.
            writer.string(name)
        case .object(let object) where field.namedType.kind == .object:
            return completeIntrospectedObject(object, field, isNonNull: field.isNonNull(at: depth - 1))
        default:
            return complete(value.resolved, depth: depth, field)
        }
        return .written
    }

    private func completeIntrospectedList(
        _ items: Introspection.Items, depth: Int, _ field: PlannedField, isNonNull: Bool
    ) -> Completion {
        completeListItems(itemDepth: depth, field, isNonNull: isNonNull) { itemIsNonNull in
            var index = 0
            return items.forEach { item in
                defer { index += 1 }
                return completeListItem(at: index, itemIsNonNull: itemIsNonNull) { completeIntrospected(item, depth: depth, field) }
            }
        }
    }

    private func completeIntrospectedObject(
        _ object: Introspection.Introspected, _ field: PlannedField, isNonNull: Bool
    ) -> Completion {
        let objectType = field.namedType
        guard let fields = plannedSubfields(objectType, of: field) else { return .failed }
        openFrame(isList: false, isNonNull: isNonNull)
        var first = true
        for index in fields.indices {
            // Borrowed from the plan, as `completeObject` does.
            let succeeded = Unmanaged.passUnretained(fields[index])._withUnsafeGuaranteedRef { planned in
                executeIntrospectedField(objectType, object, planned, first: &first)
            }
            guard succeeded, !isStopped else {
                frames.removeLast()
                return .failed
            }
        }
        closeFrame()
        return .written
    }

    /// ExecuteField for a field of an introspection object; false when the
    /// object fails with it.
    private func executeIntrospectedField(
        _ objectType: GraphQLNamedType, _ object: Introspection.Introspected, _ planned: PlannedField, first: inout Bool
    ) -> Bool {
        if writeKey(objectType, planned, first: &first) { return true }
        frames[frames.count - 1].field = Unmanaged.passUnretained(planned)
        let valueStart = writer.count
        let completion: Completion
        do {
            completion = completeIntrospected(try introspect(planned, object), depth: 0, planned)
        } catch {
            fail(error, planned.nodes)
            completion = .failed
        }
        return completion != .failed || finishFailedField(planned, valueStart)
    }
}
