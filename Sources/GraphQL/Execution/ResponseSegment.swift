/// The response's bytes as execution writes them.
///
/// Completing a value writes its JSON at once, in response order, so a
/// response costs no tree of results and no second pass to serialise one.
/// A value that must wait leaves a `Hole` where it belongs; once it comes it
/// is written into a segment of its own, which the hole splices in when the
/// response is assembled. A failure that nulls a value still being written
/// cuts the bytes back to where that value began; one that comes later (from
/// a hole) and must null an object or list already written marks that
/// `Region`, which assembly writes as `null`.
final class ResponseSegment {
    /// The bytes, once written. While the segment is written, the executor
    /// holds its writer (swapped out) and this one holds a placeholder.
    var writer: JSONWriter
    /// The holes in this segment, in the order of their offsets.
    var holes: [Hole] = []
    /// The regions of this segment nulled after they were written.
    var nulled: [Region] = []
    /// Where deferred fragments and streams were met in this segment.
    var anchors: [IncrementalAnchor] = []

    init(capacity: Int = 16) {
        writer = JSONWriter(capacity: capacity)
    }

    /// Abandons the holes from `offset` on, whose bytes were cut away.
    func abandonHoles(from offset: Int) {
        while let last = holes.last, last.offset >= offset {
            last.isAbandoned = true
            holes.removeLast()
        }
        while let last = anchors.last, last.offset >= offset {
            last.isCut = true
            anchors.removeLast()
        }
    }

    /// Whether the bytes are the value as they stand.
    var isComplete: Bool { holes.isEmpty && nulled.isEmpty }

    /// The value: the bytes, each hole's value spliced in at its offset, each
    /// nulled region written as `null` (and the holes inside it left out).
    func write(to out: inout JSONWriter) {
        let nulled = self.nulled.count > 1 ? self.nulled.sorted { $0.start < $1.start } : self.nulled
        writer.withBytes { bytes in
            var cursor = 0
            var holeIndex = 0
            var nulledIndex = 0
            while holeIndex < holes.count || nulledIndex < nulled.count {
                let nextHole = holeIndex < holes.count ? holes[holeIndex].offset : Int.max
                let nextNulled = nulledIndex < nulled.count ? nulled[nulledIndex].start : Int.max
                // A hole's value goes before the byte at its offset, so it comes
                // first when a region starts at the same offset.
                if nextHole <= nextNulled {
                    let hole = holes[holeIndex]
                    holeIndex += 1
                    out.append(UnsafeBufferPointer(rebasing: bytes[cursor..<hole.offset]))
                    cursor = hole.offset
                    if let segment = hole.segment { segment.write(to: &out) } else { out.null() }
                } else {
                    let region = nulled[nulledIndex]
                    nulledIndex += 1
                    out.append(UnsafeBufferPointer(rebasing: bytes[cursor..<region.start]))
                    out.null()
                    cursor = region.end
                    while holeIndex < holes.count, holes[holeIndex].offset < region.end { holeIndex += 1 }
                    while nulledIndex < nulled.count, nulled[nulledIndex].start < region.end { nulledIndex += 1 }
                }
            }
            out.append(UnsafeBufferPointer(rebasing: bytes[cursor...]))
        }
    }
}

/// An object or list with a hole somewhere below it: its place in its
/// segment and in the response, kept so that a failure that comes later
/// can null it (or, where its own position is non-null, what holds it).
final class Region {
    // The segment outlives the region: segments live until the response is
    // assembled, and this one holds the region in `nulled` once it matters.
    unowned(unsafe) let segment: ResponseSegment
    /// The offset of its `{` or `[`, and the offset after its `}` or `]`.
    let start: Int
    var end = 0
    /// Whether its own position is non-null.
    let isNonNull: Bool
    /// The region that holds it; nil for the root object.
    let parent: Region?
    /// Its own position in the response; nil for the root object.
    let path: PathNode?
    var isNull = false

    init(segment: ResponseSegment, start: Int, isNonNull: Bool, parent: Region?, path: PathNode?) {
        self.segment = segment
        self.start = start
        self.isNonNull = isNonNull
        self.parent = parent
        self.path = path
    }
}

/// Where a value that must wait will go: a field's value, or a list item.
final class Hole {
    /// Where its value goes in the segment that holds it.
    let offset: Int
    /// The object or list that holds its position.
    let parent: Region
    /// Its position within `parent`: the field's key or the item's index.
    let component: PathComponent
    /// How many of the field's type wrappers are outside the value.
    let depth: Int
    // Held strongly: the root fields' plan is the run's own, which an
    // optimised build may let go before the holes it left are filled.
    let field: Executor.PlannedField
    /// Whether its position is non-null.
    let isNonNull: Bool
    /// The value, once written.
    var segment: ResponseSegment?
    /// Cut away with the value around it: its value is not wanted.
    var isAbandoned = false
    /// With incremental delivery: the part it belongs to, and the deferred
    /// fragments in scope where it was left.
    var output: IncrementalOutput?
    var deferMap: [ObjectIdentifier: DeferredFragment] = [:]

    init(offset: Int, parent: Region, component: PathComponent, depth: Int, field: Executor.PlannedField) {
        self.offset = offset
        self.parent = parent
        self.component = component
        self.depth = depth
        self.field = field
        isNonNull = field.isNonNull(at: depth)
    }

    /// Its position in the response.
    lazy var path = PathNode(component, parent: parent.path)
}
