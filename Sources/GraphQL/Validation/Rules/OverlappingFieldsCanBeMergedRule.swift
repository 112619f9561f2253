/// Field Selection Merging (spec §5.3.2): fields that share a response name
/// must be the same field with the same arguments, or be on object types
/// that exclude each other, and in either case return shapes that merge.
///
/// Whether a selection set's fields merge is decided by `FieldSetMerging`,
/// the spec's algorithm over sets of fields, bounded. Only where it finds a
/// conflict are the errors found and worded as graphql-js 17 does: its walk
/// over pairs of fields and fragments, with its memo of each selection's
/// fields compared with each fragment. That walk is quadratic on chains of
/// fragments, so it has a budget too; past it, graphql-js 16's memo of
/// pairs of fragments (linear, but it skips comparisons: a fragment reached
/// through another is compared with the first fields that reach it only)
/// words the errors, and the spec's verdict stands when it finds none.
///
/// Where graphql-js compares every pair of same-named fields, which hostile
/// documents turn quadratic (CVE-2023-26144, GHSA-fc86-6rv6-2jpm),
/// structurally identical fields on the same parent type are compared once
/// as a group: identical fields never conflict with each other, and they
/// conflict with a third field exactly when their representative does.
final class OverlappingFieldsCanBeMergedRule: ValidationRule {
    override class var hooks: ValidationHooks { [.selectionSet] }

    private lazy var fieldSets = FieldSetMerging(context: context)
    /// graphql-js 17's memos: pairs of fragments compared, and which
    /// selection's fields (by the location of its selection set) were
    /// compared with which fragment.
    private var comparedFragmentPairs = PairMemo<FragmentPair>()
    private var comparedFieldsAndFragments = PairMemo<FieldsAndFragment>()
    /// graphql-js 16's memo of pairs of fragments, kept apart: what its
    /// walk skips must not make graphql-js 17's skip too.
    private var comparedFragmentPairs16 = PairMemo<FragmentPair>()
    /// What the memos held before each change, while a walk may be taken back.
    private var undo: [MemoChange] = []
    private var keepsUndo = 0
    /// Whether the walk is graphql-js 17's (else 16's memo applies).
    private var comparesFieldsWithFragments = false
    /// How deep the walk is in subfields: a cycle of fragments cannot take it further than `maxWalkDepth`.
    private var walkDepth = 0
    private static let maxWalkDepth = 300
    /// Steps left to graphql-js 17's walk in this document.
    private var walkLeft = OverlappingFieldsCanBeMergedRule.walkLimit
    private var cachedFieldsAndFragmentNames: [Location: FieldsAndFragmentNames] = [:]
    private var printedFields: [Location: String] = [:]

    /// Steps (fields and fragments compared) graphql-js 17's walk may take for one document.
    static let walkLimit = 200_000

    private struct FieldsAndFragment: Hashable {
        var fields: Location
        var fragment: String
    }

    private struct FragmentPair: Hashable {
        var first: String
        var second: String

        init(_ a: String, _ b: String) {
            (first, second) = a < b ? (a, b) : (b, a)
        }
    }

    private enum MemoChange {
        case fragmentPair(FragmentPair, Bool?)
        case fieldsAndFragment(FieldsAndFragment, Bool?)
        case fragmentPair16(FragmentPair, Bool?)
    }

    /// Identical fields: the same printed field on the same parent type.
    private struct GroupKey: Hashable {
        var parentType: ObjectIdentifier?
        var printed: String
    }

    /// Lists longer than this are grouped before their pairs are compared.
    private static let groupingThreshold = 8

    override func enterSelectionSet(_ node: SelectionSet) -> VisitAction {
        let parentType = context.typeInfo.parentType
        if cannotConflict(node, on: parentType) { return .continue }
        let conflicts: [Conflict]
        switch fieldSets.verdict(parentType, node) {
        case .merges:
            return .continue
        case .conflict(let found):
            if let worded = conflictsAsGraphQLJS17Finds(parentType, node) {
                conflicts = worded
            } else {
                // graphql-js 17's walk ran out of its budget: 16's words what
                // it finds, and the verdict's own conflict stands where it
                // finds none, unless that conflict is inside one fragment
                // (reported where the fragment is defined).
                let worded = findConflictsWithinSelectionSet(parentType: parentType, node)
                conflicts = !worded.isEmpty || isInsideOneFragment(found) ? worded : [found]
            }
        case .unknown:
            conflicts = findConflictsWithinSelectionSet(parentType: parentType, node)
        }
        for conflict in conflicts {
            context.report(
                "Fields \"\(conflict.responseName)\" conflict because \(conflict.reason.message). Use different aliases on the fields to fetch both if this was intentional.",
                (conflict.fields1 + conflict.fields2).map(\.location)
            )
            if context.isAborted { break }
        }
        return .continue
    }

    /// The conflicts graphql-js 17 reports here, or nil past the walk's budget.
    private func conflictsAsGraphQLJS17Finds(_ parentType: GraphQLNamedType?, _ node: SelectionSet) -> [Conflict]? {
        guard walkLeft > 0 else { return nil }
        comparesFieldsWithFragments = true
        defer { comparesFieldsWithFragments = false }
        let mark = beginUndo()
        let conflicts = findConflictsWithinSelectionSet(parentType: parentType, node)
        endUndo(mark, takingBack: walkLeft <= 0)
        return walkLeft > 0 ? conflicts : nil
    }

    private lazy var fragmentRanges: [Range<Int>] = context.document.definitions.compactMap {
        guard case .fragment(let fragment) = $0 else { return nil }
        return fragment.location.start..<fragment.location.end
    }

    private func isInsideOneFragment(_ conflict: Conflict) -> Bool {
        guard let first = conflict.fields1.first?.location, let second = conflict.fields2.first?.location,
            first != .none, second != .none
        else { return false }
        return fragmentRanges.contains { $0.contains(first.start) && $0.contains(second.start) }
    }

    // MARK: - Memos

    private func beginUndo() -> Int {
        keepsUndo += 1
        return undo.count
    }

    /// Ends what `beginUndo` began, taking back the memos' changes since.
    private func endUndo(_ mark: Int, takingBack: Bool) {
        keepsUndo -= 1
        if takingBack {
            while undo.count > mark {
                switch undo.removeLast() {
                case .fragmentPair(let pair, let previous): comparedFragmentPairs.restore(pair, previous)
                case .fieldsAndFragment(let key, let previous): comparedFieldsAndFragments.restore(key, previous)
                case .fragmentPair16(let pair, let previous): comparedFragmentPairs16.restore(pair, previous)
                }
            }
        }
        if keepsUndo == 0 { undo.removeAll(keepingCapacity: true) }
    }

    /// Whether two fragments were compared already (graphql-js's memo of
    /// the walk under way), noting that they are now.
    private func fragmentsWereCompared(_ a: String, _ b: String, mutuallyExclusive: Bool) -> Bool {
        let pair = FragmentPair(a, b)
        if comparesFieldsWithFragments {
            if comparedFragmentPairs.contains(pair, mutuallyExclusive: mutuallyExclusive) { return true }
            let previous = comparedFragmentPairs.insert(pair, mutuallyExclusive: mutuallyExclusive)
            if keepsUndo > 0 { undo.append(.fragmentPair(pair, previous)) }
        } else {
            if comparedFragmentPairs16.contains(pair, mutuallyExclusive: mutuallyExclusive) { return true }
            let previous = comparedFragmentPairs16.insert(pair, mutuallyExclusive: mutuallyExclusive)
            if keepsUndo > 0 { undo.append(.fragmentPair16(pair, previous)) }
        }
        return false
    }

    /// Whether a selection's fields were compared with a fragment already
    /// (graphql-js 17's memo), noting that they are now.
    private func fieldsWereCompared(_ fields: Location, with fragment: String, mutuallyExclusive: Bool) -> Bool {
        let key = FieldsAndFragment(fields: fields, fragment: fragment)
        if comparedFieldsAndFragments.contains(key, mutuallyExclusive: mutuallyExclusive) { return true }
        let previous = comparedFieldsAndFragments.insert(key, mutuallyExclusive: mutuallyExclusive)
        if keepsUndo > 0 { undo.append(.fieldsAndFragment(key, previous)) }
        return false
    }

    /// Whether graphql-js 17's walk has used its budget, counting one step.
    private func walkIsOver() -> Bool {
        guard comparesFieldsWithFragments else { return false }
        walkLeft -= 1
        return walkLeft <= 0
    }

    /// Whether nothing the selection set selects at its own level (its
    /// inline fragments' and spread fragments' fields included, followed to
    /// their fields) can conflict: each response name is selected once, or
    /// each time as the same field with no arguments, directives or
    /// subfields, of the same type wherever it is selected. Conflicts are
    /// only ever between fields of one response name, in graphql-js as in
    /// the spec, and such fields meet both of its conditions (the same
    /// field and arguments; the same response shape) whatever their parent
    /// types; what each field's subfields hold is checked where that
    /// selection set is visited. A spread seen twice or of an unknown
    /// fragment, or a set of more than `maxDistinctNames` names, takes the
    /// full check. So does a set spreading fragments once the verdict's
    /// budget is spent: graphql-js 16's walk then decides, and skipping it
    /// would leave out what its memo records of those fragments (which
    /// later sets' answers depend on, as in graphql-js).
    private func cannotConflict(_ selectionSet: SelectionSet, on parentType: GraphQLNamedType?) -> Bool {
        // The lists of the document's previous set, emptied: not two made
        // for every selection set.
        var selected: [Selected] = []
        var fragments: [String] = []
        swap(&selected, &selectedBuffer)
        swap(&fragments, &fragmentsBuffer)
        defer {
            selected.removeAll(keepingCapacity: true)
            fragments.removeAll(keepingCapacity: true)
            swap(&selected, &selectedBuffer)
            swap(&fragments, &fragmentsBuffer)
        }
        var repeats = false
        guard collectDistinct(selectionSet, on: parentType, &selected, &fragments, &repeats) else { return false }
        return fragments.isEmpty || fieldSets.hasWorkLeft
    }

    private var selectedBuffer: [Selected] = {
        var buffer: [Selected] = []
        buffer.reserveCapacity(16)
        return buffer
    }()
    private var fragmentsBuffer: [String] = []

    /// A response name as first selected: its field's name and parent
    /// type, and whether the field is plain (no arguments, directives or subfields).
    private struct Selected {
        var key: String
        var name: String
        var isPlain: Bool
        var parentType: GraphQLNamedType?
    }

    private static let maxDistinctNames = 48
    private static let maxDistinctFragments = 16
    /// Repeats the quick answer may look at in one document, one per byte
    /// of it: a fragment full of repeats, spread in many sets, is scanned
    /// again for each, and past this the full check (with its own budget)
    /// decides, as it did before repeats were looked at.
    private lazy var repeatsLeft = context.source.body.utf8.count

    private func collectDistinct(
        _ selectionSet: SelectionSet, on parentType: GraphQLNamedType?, _ selected: inout [Selected], _ fragments: inout [String],
        _ repeats: inout Bool
    ) -> Bool {
        // By index, each selection borrowed where it stands: `for … in`
        // copied each (a retain of every array a field holds, and a release).
        for index in selectionSet.selections.indices {
            switch selectionSet.selections[index] {
            case .field(let field):
                let key = field.responseKey
                let isPlain = field.arguments.isEmpty && field.directives.isEmpty && field.selectionSet == nil
                if let first = selected.first(where: { $0.key == key }) {
                    // Selected again: only the same plain field, of the same type, merges without a look.
                    guard repeatsLeft > 0 else { return false }
                    repeatsLeft -= 1
                    guard isPlain, first.isPlain, field.name.value == first.name,
                        let type = definedType(of: first.name, on: first.parentType),
                        definedType(of: field.name.value, on: parentType) == type
                    else { return false }
                    repeats = true
                } else {
                    guard selected.count < Self.maxDistinctNames else { return false }
                    selected.append(Selected(key: key, name: field.name.value, isPlain: isPlain, parentType: parentType))
                }
            case .inlineFragment(let inline):
                let type = inline.typeCondition.map { context.schema.type(named: $0.name.value) } ?? parentType
                if !collectDistinct(inline.selectionSet, on: type, &selected, &fragments, &repeats) { return false }
            case .fragmentSpread(let spread):
                // Once a name repeats, no further fragment is followed: in a
                // chain of fragments that each repeat a name, the full check
                // costs less than following them all. Nor is one followed
                // once the verdict's budget is spent: the set then takes the
                // full check whatever the scan finds (`cannotConflict`).
                let name = spread.name.value
                guard !repeats, fieldSets.hasWorkLeft, fragments.count < Self.maxDistinctFragments, !fragments.contains(name),
                    let fragment = context.fragment(named: name)
                else { return false }
                fragments.append(name)
                let type = context.schema.type(named: fragment.typeCondition.name.value)
                if !collectDistinct(fragment.selectionSet, on: type, &selected, &fragments, &repeats) { return false }
            }
        }
        return true
    }

    /// The type of the field `name` on `parentType`; nil where it is not defined.
    private func definedType(of name: String, on parentType: GraphQLNamedType?) -> GraphQLType? {
        parentType.flatMap { context.schema.field(named: name, on: $0) }?.type
    }

    // MARK: - Data

    struct FieldEntry {
        var parentType: GraphQLNamedType?
        var node: Field
        var definition: GraphQLField?

        /// `field` as selected on `parentType`, with its definition when the type has fields.
        init(_ field: Field, on parentType: GraphQLNamedType?) {
            self.parentType = parentType
            node = field
            if let parentType, parentType.kind == .object || parentType.kind == .interface {
                definition = parentType.field(named: field.name.value)
            }
        }
    }

    /// Fields by response name, in the order the names first appear. Small
    /// maps are searched by scanning; an index is built only for large ones.
    struct FieldMap {
        var id: Location
        var names: [String] = []
        var entries: [[FieldEntry]] = []
        private var index: [String: Int]? = nil

        init(id: Location) {
            self.id = id
        }

        func fields(named name: String) -> [FieldEntry]? {
            if let index { return index[name].map { entries[$0] } }
            for (position, candidate) in names.enumerated() where candidate == name { return entries[position] }
            return nil
        }

        mutating func append(_ entry: FieldEntry, as name: String) {
            var position: Int? = nil
            if let index {
                position = index[name]
            } else {
                position = names.firstIndex(of: name)
            }
            if let position {
                entries[position].append(entry)
                return
            }
            names.append(name)
            entries.append([entry])
            if index != nil {
                index![name] = names.count - 1
            } else if names.count > 16 {
                index = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
            }
        }
    }

    typealias FieldsAndFragmentNames = (fieldMap: FieldMap, fragmentNames: [String])

    indirect enum Reason {
        case message(String)
        case subfields([(String, Reason)])

        var message: String {
            switch self {
            case .message(let text):
                return text
            case .subfields(let reasons):
                return reasons.map { "subfields \"\($0.0)\" conflict because \($0.1.message)" }.joined(separator: " and ")
            }
        }
    }

    struct Conflict {
        var responseName: String
        var reason: Reason
        var fields1: [Field]
        var fields2: [Field]
    }

    /// The most conflicts worth collecting: past the error limit nothing more is reported.
    private var conflictCap: Int {
        let remaining = max(0, context.maxErrors - context.errors.count)
        // A limit of Int.max means none; one more would overflow.
        return remaining == .max ? remaining : remaining + 1
    }

    // MARK: - Finding conflicts

    private func findConflictsWithinSelectionSet(parentType: GraphQLNamedType?, _ selectionSet: SelectionSet) -> [Conflict] {
        var conflicts: [Conflict] = []
        let (fieldMap, fragmentNames) = fieldsAndFragmentNames(parentType, selectionSet)
        collectConflictsWithin(&conflicts, fieldMap)
        for (index, fragmentName) in fragmentNames.enumerated() {
            collectConflictsBetweenFieldsAndFragment(&conflicts, false, fieldMap, fragmentName)
            for other in fragmentNames[(index + 1)...] {
                collectConflictsBetweenFragments(&conflicts, false, fragmentName, other)
            }
        }
        return conflicts
    }

    private func collectConflictsBetweenFieldsAndFragment(
        _ conflicts: inout [Conflict], _ mutuallyExclusive: Bool, _ fieldMap: FieldMap, _ fragmentName: String
    ) {
        guard conflicts.count < conflictCap, !walkIsOver() else { return }
        if comparesFieldsWithFragments, fieldsWereCompared(fieldMap.id, with: fragmentName, mutuallyExclusive: mutuallyExclusive) {
            return
        }
        guard let fragment = context.fragment(named: fragmentName) else { return }
        let (fieldMap2, referencedFragmentNames) = referencedFieldsAndFragmentNames(fragment)
        if fieldMap.id == fieldMap2.id && fieldMap.id != .none { return }
        collectConflictsBetween(&conflicts, mutuallyExclusive, fieldMap, fieldMap2)
        for referenced in referencedFragmentNames {
            if !comparesFieldsWithFragments, fragmentsWereCompared(referenced, fragmentName, mutuallyExclusive: mutuallyExclusive) {
                continue
            }
            collectConflictsBetweenFieldsAndFragment(&conflicts, mutuallyExclusive, fieldMap, referenced)
        }
    }

    private func collectConflictsBetweenFragments(
        _ conflicts: inout [Conflict], _ mutuallyExclusive: Bool, _ name1: String, _ name2: String
    ) {
        if name1 == name2 || conflicts.count >= conflictCap || walkIsOver() { return }
        if fragmentsWereCompared(name1, name2, mutuallyExclusive: mutuallyExclusive) { return }
        guard let fragment1 = context.fragment(named: name1), let fragment2 = context.fragment(named: name2) else { return }
        let (fieldMap1, referenced1) = referencedFieldsAndFragmentNames(fragment1)
        let (fieldMap2, referenced2) = referencedFieldsAndFragmentNames(fragment2)
        collectConflictsBetween(&conflicts, mutuallyExclusive, fieldMap1, fieldMap2)
        for name in referenced2 { collectConflictsBetweenFragments(&conflicts, mutuallyExclusive, name1, name) }
        for name in referenced1 { collectConflictsBetweenFragments(&conflicts, mutuallyExclusive, name, name2) }
    }

    private func findConflictsBetweenSubSelectionSets(
        _ mutuallyExclusive: Bool,
        _ parentType1: GraphQLNamedType?, _ selectionSet1: SelectionSet,
        _ parentType2: GraphQLNamedType?, _ selectionSet2: SelectionSet
    ) -> [Conflict] {
        var conflicts: [Conflict] = []
        let (fieldMap1, fragmentNames1) = fieldsAndFragmentNames(parentType1, selectionSet1)
        let (fieldMap2, fragmentNames2) = fieldsAndFragmentNames(parentType2, selectionSet2)
        collectConflictsBetween(&conflicts, mutuallyExclusive, fieldMap1, fieldMap2)
        for name in fragmentNames2 { collectConflictsBetweenFieldsAndFragment(&conflicts, mutuallyExclusive, fieldMap1, name) }
        for name in fragmentNames1 { collectConflictsBetweenFieldsAndFragment(&conflicts, mutuallyExclusive, fieldMap2, name) }
        for name1 in fragmentNames1 {
            for name2 in fragmentNames2 { collectConflictsBetweenFragments(&conflicts, mutuallyExclusive, name1, name2) }
        }
        return conflicts
    }

    /// Same-named fields within one selection set, every pair once.
    private func collectConflictsWithin(_ conflicts: inout [Conflict], _ fieldMap: FieldMap) {
        for (name, fields) in zip(fieldMap.names, fieldMap.entries) {
            guard fields.count > 1 else { continue }
            if fields.count <= Self.groupingThreshold {
                for i in fields.indices {
                    for j in (i + 1)..<fields.count {
                        if conflicts.count >= conflictCap || walkIsOver() { return }
                        if let conflict = findConflict(false, name, fields[i], fields[j]) { conflicts.append(conflict) }
                    }
                }
                continue
            }
            let (groupOf, representatives) = group(fields)
            let conflicting = conflictingGroups(name, representatives, representatives, symmetric: true)
            guard conflicting.contains(true) else { continue }
            let groupCount = representatives.count
            for i in fields.indices {
                for j in (i + 1)..<fields.count where conflicting[groupOf[i] * groupCount + groupOf[j]] {
                    if conflicts.count >= conflictCap || walkIsOver() { return }
                    if let conflict = findConflict(false, name, fields[i], fields[j]) { conflicts.append(conflict) }
                }
            }
        }
    }

    /// Same-named fields of two selection sets, every pair across them.
    private func collectConflictsBetween(
        _ conflicts: inout [Conflict], _ mutuallyExclusive: Bool, _ fieldMap1: FieldMap, _ fieldMap2: FieldMap
    ) {
        for (name, fields1) in zip(fieldMap1.names, fieldMap1.entries) {
            guard let fields2 = fieldMap2.fields(named: name) else { continue }
            if fields1.count * fields2.count <= Self.groupingThreshold * Self.groupingThreshold {
                for field1 in fields1 {
                    for field2 in fields2 {
                        if conflicts.count >= conflictCap || walkIsOver() { return }
                        if let conflict = findConflict(mutuallyExclusive, name, field1, field2) { conflicts.append(conflict) }
                    }
                }
                continue
            }
            let (groupOf1, representatives1) = group(fields1)
            let (groupOf2, representatives2) = group(fields2)
            let conflicting = conflictingGroups(
                name, representatives1, representatives2, symmetric: false, mutuallyExclusive: mutuallyExclusive
            )
            guard conflicting.contains(true) else { continue }
            for (i, field1) in fields1.enumerated() {
                for (j, field2) in fields2.enumerated()
                where conflicting[groupOf1[i] * representatives2.count + groupOf2[j]] {
                    if conflicts.count >= conflictCap || walkIsOver() { return }
                    if let conflict = findConflict(mutuallyExclusive, name, field1, field2) { conflicts.append(conflict) }
                }
            }
        }
    }

    /// Groups structurally identical fields on the same parent type.
    private func group(_ fields: [FieldEntry]) -> (groupOf: [Int], representatives: [FieldEntry]) {
        var groupOf: [Int] = []
        var representatives: [FieldEntry] = []
        var index: [GroupKey: Int] = [:]
        for field in fields {
            let key = GroupKey(parentType: field.parentType.map(ObjectIdentifier.init), printed: printed(field.node))
            if let existing = index[key] {
                groupOf.append(existing)
            } else {
                index[key] = representatives.count
                groupOf.append(representatives.count)
                representatives.append(field)
            }
        }
        return (groupOf, representatives)
    }

    private func printed(_ field: Field) -> String {
        let location = field.location
        if location != .none, let cached = printedFields[location] { return cached }
        let text = Printer.print(field)
        if location != .none { printedFields[location] = text }
        return text
    }

    /// Which pairs of groups conflict, judged by their representatives, the
    /// memos' changes taken back after, so that judging changes nothing.
    private func conflictingGroups(
        _ name: String, _ groups1: [FieldEntry], _ groups2: [FieldEntry], symmetric: Bool, mutuallyExclusive: Bool = false
    ) -> [Bool] {
        let mark = beginUndo()
        defer { endUndo(mark, takingBack: true) }
        var conflicting = [Bool](repeating: false, count: groups1.count * groups2.count)
        for (g, first) in groups1.enumerated() {
            for (h, second) in groups2.enumerated() {
                // A group is compared with itself too: identical fields
                // conflict when what they spread conflicts with what they select.
                if symmetric && h < g { continue }
                let conflict = findConflict(mutuallyExclusive, name, first, second) != nil
                conflicting[g * groups2.count + h] = conflict
                if symmetric { conflicting[h * groups2.count + g] = conflict }
            }
        }
        return conflicting
    }

    /// Two fields with one response name: a conflict, or nil when they merge.
    private func findConflict(
        _ parentFieldsAreMutuallyExclusive: Bool, _ responseName: String, _ field1: FieldEntry, _ field2: FieldEntry
    ) -> Conflict? {
        // A cycle of fragments would take the walk on without end: cut short,
        // graphql-js 17's walk is given up (and the verdict stands), 16's finds nothing more.
        walkDepth += 1
        defer { walkDepth -= 1 }
        guard walkDepth <= Self.maxWalkDepth else {
            if comparesFieldsWithFragments { walkLeft = 0 }
            return nil
        }
        let node1 = field1.node, node2 = field2.node
        // Fields on different object types can never both apply to one object.
        let areMutuallyExclusive =
            parentFieldsAreMutuallyExclusive
            || (field1.parentType !== field2.parentType
                && field1.parentType?.kind == .object && field2.parentType?.kind == .object)
        if !areMutuallyExclusive {
            if node1.name.value != node2.name.value {
                return Conflict(
                    responseName: responseName,
                    reason: .message("\"\(node1.name.value)\" and \"\(node2.name.value)\" are different fields"),
                    fields1: [node1], fields2: [node2]
                )
            }
            if Self.stringifyArguments(node1.arguments) != Self.stringifyArguments(node2.arguments) {
                return Conflict(
                    responseName: responseName, reason: .message("they have differing arguments"),
                    fields1: [node1], fields2: [node2]
                )
            }
        }
        // With incremental delivery (graphql-js 17): one list cannot be
        // streamed one way and delivered whole, or streamed another way;
        // checked on fields of different object types too, as graphql-js 17 does.
        if !Self.sameStreams(node1, node2) {
            return Conflict(
                responseName: responseName, reason: .message("they have differing stream directives"),
                fields1: [node1], fields2: [node2]
            )
        }
        let type1 = field1.definition?.type, type2 = field2.definition?.type
        if let type1, let type2, Self.doTypesConflict(type1, type2) {
            return Conflict(
                responseName: responseName,
                reason: .message("they return conflicting types \"\(type1)\" and \"\(type2)\""),
                fields1: [node1], fields2: [node2]
            )
        }
        if let selectionSet1 = node1.selectionSet, let selectionSet2 = node2.selectionSet {
            let conflicts = findConflictsBetweenSubSelectionSets(
                areMutuallyExclusive, type1?.namedType, selectionSet1, type2?.namedType, selectionSet2
            )
            guard !conflicts.isEmpty else { return nil }
            return Conflict(
                responseName: responseName,
                reason: .subfields(conflicts.map { ($0.responseName, $0.reason) }),
                fields1: [node1] + conflicts.flatMap(\.fields1),
                fields2: [node2] + conflicts.flatMap(\.fields2)
            )
        }
        return nil
    }

    /// Arguments as one printed object with fields sorted by name, so order does not matter.
    static func sameStreams(_ node1: Field, _ node2: Field) -> Bool {
        let stream1 = node1.directives.first { $0.name.value == "stream" }
        let stream2 = node2.directives.first { $0.name.value == "stream" }
        switch (stream1, stream2) {
        case (nil, nil): return true
        case (let stream1?, let stream2?): return stringifyArguments(stream1.arguments) == stringifyArguments(stream2.arguments)
        default: return false
        }
    }

    static func stringifyArguments(_ arguments: [Argument]) -> String {
        let object = ObjectValue(
            fields: arguments.map { ObjectField(name: $0.name, value: $0.value, location: .none) },
            location: .none
        )
        return Printer.print(sortValueNode(.object(object)))
    }

    /// Whether two types cannot be merged: lists against non-lists, non-null
    /// against nullable, or two different leaf types.
    static func doTypesConflict(_ type1: GraphQLType, _ type2: GraphQLType) -> Bool {
        switch (type1, type2) {
        case (.list(let inner1), .list(let inner2)): return doTypesConflict(inner1, inner2)
        case (.list, _), (_, .list): return true
        case (.nonNull(let inner1), .nonNull(let inner2)): return doTypesConflict(inner1, inner2)
        case (.nonNull, _), (_, .nonNull): return true
        case (.named(let named1), .named(let named2)):
            if named1.isLeafType || named2.isLeafType { return named1 !== named2 }
            return false
        }
    }

    // MARK: - Collecting fields

    private func fieldsAndFragmentNames(_ parentType: GraphQLNamedType?, _ selectionSet: SelectionSet) -> FieldsAndFragmentNames {
        let key = selectionSet.location
        if key != .none, let cached = cachedFieldsAndFragmentNames[key] { return cached }
        var fieldMap = FieldMap(id: key)
        var fragmentNames: [String] = []
        var seenFragments: Set<String> = []
        collectFieldsAndFragmentNames(parentType, selectionSet, &fieldMap, &fragmentNames, &seenFragments)
        let result = (fieldMap, fragmentNames)
        if key != .none { cachedFieldsAndFragmentNames[key] = result }
        return result
    }

    private func referencedFieldsAndFragmentNames(_ fragment: FragmentDefinition) -> FieldsAndFragmentNames {
        let key = fragment.selectionSet.location
        if key != .none, let cached = cachedFieldsAndFragmentNames[key] { return cached }
        let fragmentType = context.schema.type(named: fragment.typeCondition.name.value)
        return fieldsAndFragmentNames(fragmentType, fragment.selectionSet)
    }

    private func collectFieldsAndFragmentNames(
        _ parentType: GraphQLNamedType?, _ selectionSet: SelectionSet,
        _ fieldMap: inout FieldMap, _ fragmentNames: inout [String], _ seenFragments: inout Set<String>
    ) {
        for index in selectionSet.selections.indices {
            switch selectionSet.selections[index] {
            case .field(let field):
                fieldMap.append(FieldEntry(field, on: parentType), as: field.responseKey)
            case .fragmentSpread(let spread):
                if seenFragments.insert(spread.name.value).inserted { fragmentNames.append(spread.name.value) }
            case .inlineFragment(let inline):
                let inlineType = inline.typeCondition.map { context.schema.type(named: $0.name.value) } ?? parentType
                collectFieldsAndFragmentNames(inlineType, inline.selectionSet, &fieldMap, &fragmentNames, &seenFragments)
            }
        }
    }
}

/// Pairs already compared, and whether the comparison assumed their
/// parents mutually exclusive, which covers fewer cases (graphql-js's
/// PairSet): one that did not covers both.
struct PairMemo<Key: Hashable> {
    private var data: [Key: Bool] = [:]

    func contains(_ key: Key, mutuallyExclusive: Bool) -> Bool {
        guard let stored = data[key] else { return false }
        return mutuallyExclusive ? true : stored == mutuallyExclusive
    }

    /// Notes `key`; returns what was noted before, for `restore`.
    mutating func insert(_ key: Key, mutuallyExclusive: Bool) -> Bool? {
        data.updateValue(mutuallyExclusive, forKey: key)
    }

    mutating func restore(_ key: Key, _ previous: Bool?) {
        data[key] = previous
    }
}
