/// Handling field errors (spec §6.4.4): a failed field is null where it
/// may be, else the null goes up to the nearest nullable position.
extension Executor {
    // MARK: Errors

    /// A field error at the current position, reported once with the field's
    /// locations and path. Nulling is the caller's: the position, or (for a
    /// non-null position) the nearest nullable one above it.
    func fail(_ error: any Error, _ fieldNodes: [Field]) {
        let (parentPath, key) = currentPosition()
        let path = PathNode.components(parentPath, then: key)
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
            located = GraphQLError(
                message: failure.message, locations: fieldNodes.map { source.location(at: $0.location.start) }, path: path)
        } else if let unexpectedError = schema.unexpectedError {
            located = unexpectedError(error)
            located.locations = fieldNodes.map { source.location(at: $0.location.start) }
            located.path = path
        } else {
            located = GraphQLError(
                message: String(describing: error), locations: fieldNodes.map { source.location(at: $0.location.start) }, path: path
            )
        }
        errors.append(located)
    }

    /// The field error for a null where the field's type at the current
    /// position is non-null.
    func failNullInNonNull(_ field: PlannedField) {
        fail(FieldFailure("Cannot return null for non-nullable field \(field.parentType.name).\(field.name)."), field.nodes)
    }

    /// A non-null value inside `region` failed after the region was written:
    /// the region becomes null, or, where its own position is non-null, the
    /// region around it does, and so on up to the data.
    func propagateNull(into region: Region) {
        var current: Region? = region
        var top = region
        while let candidate = current {
            if !candidate.isNonNull {
                candidate.isNull = true
                candidate.segment.nulled.append(candidate)
                return
            }
            top = candidate
            current = candidate.parent
        }
        // A deferred part's root cannot be null: the part fails instead.
        if let output = incremental?.output, output.kind != .initial {
            output.failed = true
            top.isNull = true
            return
        }
        dataIsNull = true
    }

    struct FieldFailure: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }
}
