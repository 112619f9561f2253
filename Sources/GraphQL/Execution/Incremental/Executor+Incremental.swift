/// Incremental delivery in the executor: deferred fragments and streams met
/// while writing, and the rounds that execute and deliver them.
extension Executor {
    typealias DeferMap = [ObjectIdentifier: DeferredFragment]

    // MARK: Meeting deferred fragments and streams

    /// The object now open (the top frame) defers: a record of each of its
    /// deferred fragments, and an execution group for each grouped field set
    /// left for later. Returns the deferred fragments in scope before, which
    /// the caller puts back once the object is written, and the fields to
    /// execute with the object's own after all: those of fragments that
    /// completed already (met in the items of a stream they hold), which
    /// have nothing left to deliver them with.
    func beginDeferral(_ deferral: Deferral, _ objectType: GraphQLNamedType, _ parent: Parent) -> (
        saved: DeferMap, inline: [PlannedField]
    ) {
        let state = incremental!
        let saved = state.deferMap
        let top = frames.count - 1
        let path = path(ofFrame: top)
        let anchor = makeAnchor(frame: top)
        if !deferral.newUsages.isEmpty {
            var map = state.deferMap
            for usage in deferral.newUsages {
                let record = DeferredFragment(
                    usage: usage, path: path, parent: usage.parent.flatMap { map[$0.identity] }, anchor: anchor)
                map[usage.identity] = record
                state.register(record)
            }
            state.deferMap = map
        }
        var inline: [PlannedField] = []
        for group in deferral.groups {
            let fragments = group.usages.compactMap { state.deferMap[$0.identity] }
            if fragments.allSatisfy(\.isFinished) {
                inline += group.fields
                continue
            }
            let execution = ExecutionGroup(
                fragments: fragments, path: path, objectType: objectType, parent: parent, fields: group.fields,
                deferMap: state.deferMap, anchor: anchor)
            for fragment in fragments { fragment.groups.append(execution) }
        }
        return (saved, inline)
    }

    /// An anchor at an open frame of the segment being written.
    func makeAnchor(frame index: Int) -> IncrementalAnchor {
        let anchor = IncrementalAnchor(region: region(ofFrame: index), output: incremental!.output, offset: frames[index].start)
        segment.anchors.append(anchor)
        return anchor
    }

    /// The field's `@stream`, worked out once per plan; nil without one. A
    /// stream whose arguments cannot be coerced fails the field.
    func streamUsage(_ field: PlannedField) throws(GraphQLError) -> StreamUsage? {
        if !field.streamChecked {
            field.streamChecked = true
            field.stream = try collector.streamUsage(field.nodes[0])
        }
        return field.stream
    }

    /// The list of a field with `@stream`: its first `initialCount` items
    /// now, the rest left to a stream record (when there are any).
    func completeStreamedList(
        _ count: Int, depth: Int, _ field: PlannedField, isNonNull: Bool, stream: StreamUsage, _ item: (Int) -> Resolved
    ) -> Completion {
        let initial = min(count, stream.initialCount)
        return completeListItems(itemDepth: depth, field, isNonNull: isNonNull) { itemIsNonNull in
            for index in 0..<initial {
                guard completeListItem(at: index, itemIsNonNull: itemIsNonNull, { complete(item(index), depth: depth, field) })
                else { return false }
            }
            if count > initial {
                let top = frames.count - 1
                let record = StreamRecord(
                    path: path(ofFrame: top), usage: stream, anchor: makeAnchor(frame: top), field: field, itemDepth: depth,
                    items: (initial..<count).map(item), firstIndex: initial, deferMap: incremental!.deferMap)
                incremental!.register(record)
            }
            return true
        }
    }

    // MARK: Writing the deferred parts

    /// Makes `output` the part being written: its errors collect in `errors`.
    func enter(_ output: IncrementalOutput) {
        let state = incremental!
        guard state.output !== output else { return }
        swap(&errors, &state.output.errors)
        swap(&errors, &output.errors)
        state.output = output
    }

    /// Starts writing a part of its own: a fresh segment with its root
    /// object or list open at `path`.
    private func beginPart(_ output: IncrementalOutput, path: PathNode?, isList: Bool, deferMap: DeferMap) {
        enter(output)
        incremental!.deferMap = deferMap
        segment = ResponseSegment(capacity: 256)
        swap(&writer, &segment.writer)
        hole = nil
        rootPath = path
        frames = []
        openFrame(isList: isList, isNonNull: true)
        output.root = region(ofFrame: 0)
    }

    /// Ends the part: its bytes go back to its segment.
    private func endPart(_ output: IncrementalOutput, written: Bool) {
        if written { closeFrame() } else { frames.removeAll() }
        if !written {
            output.failed = true
            output.root?.isNull = true
        }
        setAsideBytes += writer.count
        swap(&writer, &segment.writer)
        output.segment = segment
        frames = []
        rootPath = nil
    }

    /// Executes an execution group's fields on its object, leaving holes
    /// for what waits (filled with the round's other waiting work).
    func executeGroup(_ group: ExecutionGroup) {
        let output = IncrementalOutput(kind: .group)
        output.group = group
        group.output = output
        beginPart(output, path: group.path, isList: false, deferMap: group.deferMap)
        var instance = ParentInstance()
        var first = true
        var members: [GraphQLValue.Member]?
        if case .value(.object(let objectMembers)) = group.parent { members = objectMembers }
        var written = true
        for field in group.fields {
            guard executeField(group.objectType, group.parent, field, members: members, first: &first, instance: &instance),
                !isStopped
            else {
                written = false
                break
            }
        }
        endPart(output, written: written)
    }

    /// Completes a stream's remaining items as one list. An item that fails
    /// where items may not be null ends the stream: the items before it are
    /// delivered, then the stream completes with the error.
    func executeStream(_ stream: StreamRecord) {
        let output = IncrementalOutput(kind: .stream)
        stream.output = output
        beginPart(output, path: stream.path, isList: true, deferMap: stream.deferMap)
        let field = stream.field
        let itemIsNonNull = field.isNonNull(at: stream.itemDepth)
        for (offset, item) in stream.items.enumerated() {
            if offset > 0 { writer.byte(0x2C) }
            frames[0].index = stream.firstIndex + offset
            let itemStart = writer.count
            let errorsBefore = errors.count
            guard complete(item, depth: stream.itemDepth, field) == .failed || isStopped else { continue }
            if !itemIsNonNull && !isStopped {
                truncate(to: itemStart)
                writer.null()
                continue
            }
            truncate(to: offset > 0 ? itemStart - 1 : itemStart)
            output.streamFailure = (offset, errorsBefore)
            break
        }
        endPart(output, written: true)
    }

    // MARK: Rounds

    /// Announces records: each gets an id and a pending entry, except one
    /// whose place is gone (it and what it holds are dropped) and a
    /// deferred fragment with nothing left to deliver (its children are
    /// announced in its place).
    func announce(_ records: [IncrementalRecord], into pending: inout [PendingResult]) {
        let state = incremental!
        for record in records where record.id == nil && !record.isFinished {
            if record.anchor?.isAbandoned == true {
                record.isFinished = true
                continue
            }
            if let fragment = record as? DeferredFragment, fragment.pruneAbandonedGroups().isEmpty {
                fragment.isFinished = true
                announce(fragment.children, into: &pending)
                continue
            }
            let id = String(state.nextID)
            state.nextID += 1
            record.id = id
            state.announced.append(record)
            pending.append(PendingResult(id: id, path: record.pathComponents, label: record.label))
        }
    }

    /// The groups of announced fragments not yet executed.
    private func runnableGroups() -> [ExecutionGroup] {
        var groups: [ExecutionGroup] = []
        var seen: Set<ObjectIdentifier> = []
        for case let fragment as DeferredFragment in incremental!.announced where !fragment.isFinished {
            fragment.pruneAbandonedGroups()
            for group in fragment.groups where group.output == nil && seen.insert(ObjectIdentifier(group)).inserted {
                groups.append(group)
            }
        }
        return groups
    }

    /// The next subsequent result: executes every group of an announced
    /// fragment not yet executed and every announced stream, together (so
    /// their loads batch), then the groups those met for the same
    /// fragments, and delivers what completed. Nil when nothing is left.
    func nextSubsequentResult() async -> SubsequentResult? {
        let state = incremental!
        guard state.announced.contains(where: { !$0.isFinished }) else { return nil }
        var groups = runnableGroups()
        var streams: [StreamRecord] = []
        for case let stream as StreamRecord in state.announced where !stream.isFinished && stream.output == nil {
            streams.append(stream)
        }
        setAsideBytes = 0
        waitingBytes = 0
        for group in groups where !isStopped { executeGroup(group) }
        for stream in streams where !isStopped { executeStream(stream) }
        await drain()
        while !isStopped {
            let more = runnableGroups()
            if more.isEmpty { break }
            for group in more where !isStopped { executeGroup(group) }
            await drain()
            groups += more
        }
        // The last part's errors go back to it.
        enter(state.initial)
        var result = SubsequentResult(hasNext: false)
        if let stopError {
            // A limit or cancellation ends everything still to come.
            for record in state.announced where !record.isFinished {
                record.isFinished = true
                result.completed.append(CompletedResult(id: record.id!, errors: [stopError]))
            }
            return result
        }
        for group in groups {
            guard let output = group.output, output.failed else { continue }
            for fragment in group.fragments where !fragment.isFinished {
                fragment.isFinished = true
                if let id = fragment.id { result.completed.append(CompletedResult(id: id, errors: output.errors)) }
            }
        }
        // Completing a fragment announces its children; any of those whose
        // groups are already done completes in the same result. A group met
        // in the items of a stream delivered in this result goes after them.
        let streamOutputs = Set(streams.compactMap { $0.output.map(ObjectIdentifier.init) })
        var afterItems: [IncrementalResult] = []
        var progressed = true
        while progressed {
            progressed = false
            for record in state.announced where !record.isFinished {
                guard let fragment = record as? DeferredFragment, fragment.groups.allSatisfy(\.isDone) else { continue }
                for group in fragment.groups where !group.isDelivered {
                    group.isDelivered = true
                    if let output = group.anchor?.output, streamOutputs.contains(ObjectIdentifier(output)) {
                        afterItems.append(delivery(of: group, completing: fragment))
                    } else {
                        result.incremental.append(delivery(of: group, completing: fragment))
                    }
                }
                fragment.isFinished = true
                result.completed.append(CompletedResult(id: fragment.id!))
                announce(fragment.children, into: &result.pending)
                progressed = true
            }
        }
        for stream in streams {
            guard let output = stream.output, let id = stream.id else { continue }
            stream.isFinished = true
            if output.failed {
                result.completed.append(CompletedResult(id: id, errors: output.errors))
                continue
            }
            var written = JSONWriter(capacity: 256)
            output.segment!.write(to: &written)
            let split = output.streamFailure?.errors ?? output.errors.count
            if output.streamFailure?.items != 0 {
                result.incremental.append(
                    IncrementalResult(
                        id: id, payload: .items, json: WrittenJSON(written), errors: Array(output.errors[..<split])))
            }
            result.completed.append(
                CompletedResult(id: id, errors: output.streamFailure == nil ? nil : Array(output.errors[split...])))
            announce(output.released, into: &result.pending)
        }
        result.incremental += afterItems
        state.announced.removeAll { $0.isFinished }
        result.hasNext = !state.announced.isEmpty
        return result
    }

    /// A group's data, under the announced fragment of the longest path among
    /// its fragments (the one completing, on a tie), with the rest of the
    /// group's path as `subPath`.
    private func delivery(of group: ExecutionGroup, completing fragment: DeferredFragment) -> IncrementalResult {
        var best = fragment
        var bestLength = fragment.pathComponents.count
        for other in group.fragments where other !== fragment && other.id != nil {
            let length = other.pathComponents.count
            if length > bestLength {
                best = other
                bestLength = length
            }
        }
        let groupPath = PathNode.components(group.path)
        let subPath = Array(groupPath.dropFirst(bestLength))
        let output = group.output!
        var written = JSONWriter(capacity: 256)
        output.segment!.write(to: &written)
        return IncrementalResult(
            id: best.id!, payload: .data(subPath: subPath.isEmpty ? nil : subPath), json: WrittenJSON(written),
            errors: output.errors)
    }
}
