/// The response writer: the objects and lists open in the segment being
/// written, the positions and paths they give, and holes left for waiting values.
extension Executor {
    // MARK: Frames and positions

    func openFrame(isList: Bool, isNonNull: Bool) {
        frames.append(Frame(start: writer.count, isList: isList, isNonNull: isNonNull))
        writer.byte(isList ? 0x5B : 0x7B)
    }

    func closeFrame() {
        let frame = frames.removeLast()
        writer.byte(frame.isList ? 0x5D : 0x7D)
        frame.region?.end = writer.count
        // Checked as each object and list closes: cheap, and often enough
        // that a response overshoots by at most one object's leaves.
        if writer.count > writeBudget, !isStopped {
            stop(ExecutionLimits.responseTooLarge(maxResponseBytes))
        }
    }

    /// The position of the value being completed: its parent's path and its own key or index.
    func currentPosition() -> (parent: PathNode?, key: PathComponent) {
        if let top = frames.indices.last { return (path(ofFrame: top), component(ofFrame: top)) }
        // No frame is open only while a hole's own value is completed.
        let hole = hole!
        return (hole.parent.path, hole.component)
    }

    func component(ofFrame index: Int) -> PathComponent {
        frames[index].isList ? .index(frames[index].index) : .key(frames[index].field!.takeUnretainedValue().key)
    }

    /// The position of an open object or list.
    func path(ofFrame index: Int) -> PathNode? {
        if frames[index].hasPath { return frames[index].path }
        let made = index == 0 ? hole?.path ?? rootPath : PathNode(component(ofFrame: index - 1), parent: path(ofFrame: index - 1))
        frames[index].path = made
        frames[index].hasPath = true
        return made
    }

    /// An open object or list as a region, made with those around it when a
    /// hole is first left below it.
    func region(ofFrame index: Int) -> Region {
        if let region = frames[index].region { return region }
        let parent = index == 0 ? hole?.parent : region(ofFrame: index - 1)
        let made = Region(
            segment: segment, start: frames[index].start, isNonNull: frames[index].isNonNull, parent: parent,
            path: path(ofFrame: index)
        )
        frames[index].region = made
        return made
    }

    /// Leaves a hole at the current position for a value that must wait.
    func leaveHole(_ waiting: PendingField.Waiting, depth: Int, _ field: PlannedField) {
        let parent: Region
        let component: PathComponent
        if let top = frames.indices.last {
            (parent, component) = (region(ofFrame: top), self.component(ofFrame: top))
        } else {
            // A hole's value that must wait again takes the hole's place.
            let outer = hole!
            (parent, component) = (outer.parent, outer.component)
        }
        let made = Hole(offset: writer.count, parent: parent, component: component, depth: depth, field: field)
        segment.holes.append(made)
        if let incremental {
            made.output = incremental.output
            made.deferMap = incremental.deferMap
        }
        pending.append(PendingField(waiting: waiting, hole: made))
        guard maxHeldBytes != .max else { return }
        // A page of a hundred friends for each of a thousand users is
        // refused here, before its one load brings a hundred thousand rows.
        if field.expectedObjects == 0 {
            field.expectedObjects =
                field.definition.map {
                    FieldSizeDeclaration($0).expectedObjects($0, field.nodes[0], variableValues, defaultListSize: defaultListSize)
                } ?? 1
        }
        // An item of a list that waits is one object of the list's.
        waitingBytes &+= ExecutionLimits.bytesPerWaitingValue &* (depth == 0 ? field.expectedObjects : 1)
        if waitingBytes &+ setAsideBytes &+ writer.count > maxHeldBytes {
            stop(ExecutionLimits.heldTooMuch(maxHeldBytes))
        }
    }
}
