/// The records of incremental delivery: deferred fragments, the execution
/// groups that hold their fields, streams, and the outputs execution writes
/// (the initial result, a group's data, a stream's items).

/// Where a deferred fragment or stream was met: the object or list in the
/// output that met it. A record whose place was cut away or nulled since is
/// never announced; one in an output that failed goes with it.
final class IncrementalAnchor {
    let region: Region
    let output: IncrementalOutput
    /// The offset of the object or list in its segment.
    let offset: Int
    var isCut = false

    init(region: Region, output: IncrementalOutput, offset: Int) {
        self.region = region
        self.output = output
        self.offset = offset
    }

    var isAbandoned: Bool {
        if isCut || output.failed { return true }
        var current: Region? = region
        while let candidate = current {
            if candidate.isNull { return true }
            current = candidate.parent
        }
        return false
    }
}

/// What one part of the response wrote: its data or items, and its errors.
final class IncrementalOutput {
    enum Kind {
        case initial
        case group
        case stream
    }

    let kind: Kind
    /// For a group's output, the group (which holds the output).
    weak var group: ExecutionGroup?
    var errors: [GraphQLError] = []
    /// A non-null position failed up to the part's own root: its data is gone.
    var failed = false
    /// The part's root object or list, made when it starts.
    var root: Region?
    var segment: ResponseSegment?
    /// Records met while writing it that are announced once it is delivered.
    var released: [IncrementalRecord] = []
    /// For a stream's items: how many were written before an item that is
    /// not nullable failed (the items delivered), and how many of the
    /// errors came before it (delivered with them; the rest end the stream).
    var streamFailure: (items: Int, errors: Int)?

    init(kind: Kind) {
        self.kind = kind
    }
}

/// A deferred fragment or a stream: what the publisher announces with an id.
class IncrementalRecord {
    let path: PathNode?
    let label: String?
    let anchor: IncrementalAnchor?
    /// Given when the record is announced (`pending`).
    var id: String?
    var isFinished = false

    init(path: PathNode?, label: String?, anchor: IncrementalAnchor?) {
        self.path = path
        self.label = label
        self.anchor = anchor
    }

    var pathComponents: [PathComponent] { PathNode.components(path) }
}

/// A deferred fragment on one object: complete once all its groups are.
final class DeferredFragment: IncrementalRecord {
    let parent: DeferredFragment?
    var groups: [ExecutionGroup] = []
    /// Fragments nested in it, and streams met in its groups: announced when it completes.
    var children: [IncrementalRecord] = []

    init(usage: DeferUsage, path: PathNode?, parent: DeferredFragment?, anchor: IncrementalAnchor?) {
        self.parent = parent
        super.init(path: path, label: usage.label, anchor: anchor)
    }

    /// Leaves out the groups not yet executed whose object was cut away or
    /// nulled since: they have nothing to deliver.
    @discardableResult
    func pruneAbandonedGroups() -> [ExecutionGroup] {
        groups.removeAll { $0.output == nil && $0.anchor?.isAbandoned == true }
        return groups
    }
}

/// Fields of one object that one set of deferred fragments selects: executed
/// once, delivered once, with the first of those fragments to complete.
final class ExecutionGroup {
    let fragments: [DeferredFragment]
    let path: PathNode?
    let objectType: GraphQLNamedType
    let parent: Parent
    let fields: [Executor.PlannedField]
    let deferMap: [ObjectIdentifier: DeferredFragment]
    let anchor: IncrementalAnchor?
    var output: IncrementalOutput?
    var isDelivered = false

    init(
        fragments: [DeferredFragment], path: PathNode?, objectType: GraphQLNamedType, parent: Parent,
        fields: [Executor.PlannedField], deferMap: [ObjectIdentifier: DeferredFragment], anchor: IncrementalAnchor?
    ) {
        self.fragments = fragments
        self.path = path
        self.objectType = objectType
        self.parent = parent
        self.fields = fields
        self.deferMap = deferMap
        self.anchor = anchor
    }

    var isDone: Bool { output.map { !$0.failed } ?? false }
}

/// The items of a list after its `initialCount`, delivered later.
final class StreamRecord: IncrementalRecord {
    let field: Executor.PlannedField
    /// The depth of the items in the field's type wrappers.
    let itemDepth: Int
    let items: [Resolved]
    /// The index of the first of `items` in the list.
    let firstIndex: Int
    let deferMap: [ObjectIdentifier: DeferredFragment]
    var output: IncrementalOutput?

    init(
        path: PathNode?, usage: StreamUsage, anchor: IncrementalAnchor?, field: Executor.PlannedField, itemDepth: Int,
        items: [Resolved], firstIndex: Int, deferMap: [ObjectIdentifier: DeferredFragment]
    ) {
        self.field = field
        self.itemDepth = itemDepth
        self.items = items
        self.firstIndex = firstIndex
        self.deferMap = deferMap
        super.init(path: path, label: usage.label, anchor: anchor)
    }
}

/// An execution's incremental state: the part being written, the deferred
/// fragments in scope there, and every record announced and not finished.
final class IncrementalState {
    let initial = IncrementalOutput(kind: .initial)
    var output: IncrementalOutput
    /// The deferred fragments of the object being written and those around
    /// it, by their `DeferUsage`.
    var deferMap: [ObjectIdentifier: DeferredFragment] = [:]
    /// What objects of each subplan defer (by the subplan's index).
    var deferrals: [Int: Deferral] = [:]
    /// Announced, in the order they were, and not finished.
    var announced: [IncrementalRecord] = []
    var nextID = 0

    init() {
        output = initial
    }

    /// A record met while writing the current part: a nested fragment waits
    /// for its parent (unless that has completed already: met in the items
    /// of a stream the parent held), a stream met in a deferred group for
    /// that group's fragments; anything else is announced with the part.
    func register(_ record: IncrementalRecord) {
        if let fragment = record as? DeferredFragment, let parent = fragment.parent, !parent.isFinished {
            parent.children.append(record)
        } else if let group = output.group, !group.fragments.isEmpty {
            for fragment in group.fragments { fragment.children.append(record) }
        } else {
            output.released.append(record)
        }
    }
}
