/// Field Selection Merging decided the way the spec states it (§5.3.2,
/// FieldsInSetCanMerge and SameResponseShape), over sets of fields rather
/// than pairs of fragments: whether any two fields of a selection set, with
/// every fragment spread in it expanded, fail to merge.
///
/// graphql-js's pairwise walk needs a memo to stay fast, and either memo
/// goes wrong somewhere: graphql-js 16's, of pairs of fragments, skips
/// comparisons it needs (a fragment reached through another is compared
/// with the first fields that reach it only); graphql-js 17's, of a
/// selection's fields with each fragment, is quadratic on a chain of
/// fragments. Here both relations the spec asks for are equivalences —
/// same name and arguments within a set of fields that are not mutually
/// exclusive, the same response shape within a response name — so a set is
/// checked against one representative, and the subfields of a whole group
/// are merged into one set and checked once, not pair by pair. Each merged
/// set is decided once per document, keyed by its fields, and a selection
/// set met inside a set found to merge merges too (a subset of fields that
/// merge merges), so it is not checked again.
///
/// This decides; OverlappingFieldsCanBeMergedRule words the errors as
/// graphql-js does, and walks graphql-js's way only where this finds a
/// conflict. The work is bounded: past `workLimit` steps, or sets nested
/// deeper than `depthLimit` through fragments, the verdict is unknown.
final class FieldSetMerging {
    typealias FieldEntry = OverlappingFieldsCanBeMergedRule.FieldEntry
    typealias Conflict = OverlappingFieldsCanBeMergedRule.Conflict

    enum Verdict {
        case merges
        case conflict(Conflict)
        case unknown
    }

    /// Steps (selections expanded, fields compared) for one document: a
    /// floor, and more for a larger document (`workPerByte` each byte).
    static let workLimit = 400_000
    static let workPerByte = 8
    /// Merged sets nested deeper than this, through fragments, are not followed.
    static let depthLimit = 300

    private let context: ValidationContext
    private var workLeft: Int
    /// The verdict on each merged set already decided.
    private var decided: [Key: Conflict?] = [:]
    /// Merged sets being decided: met again (through a cycle of
    /// fragments), one is taken to merge, and what relied on that is not kept.
    private var deciding: Set<Key> = []
    private var reliedOnDeciding = false
    /// Selection sets inside the sets found to merge by the verdict being
    /// made, covered once the whole verdict is that it merges (response
    /// shapes checked too).
    private var pendingCover: [Int] = []
    /// Each selection set's own fields (through its inline fragments) and
    /// the fragments it spreads, found once; sets refer to them by position.
    private var directs: [Direct] = []
    private var directOfSelectionSet: [Location: Int] = [:]
    /// Each field's selection set (its position in `directs`), -1 until found.
    private var directOfSubfields: [Int] = []
    /// Each fragment's selection set (in `directs`), by the fragment's number; -1 until found.
    private var fragmentNumbers: [String: Int] = [:]
    private var directOfFragment: [Int] = []
    private var fragmentNames: [String] = []
    /// Per fragment number, the expansion that met it last (with `stamp`).
    private var fragmentSeen: [Int] = []
    private var responseNames: [String: Int] = [:]
    /// Per response name, its group in the set being grouped (with `stamp`).
    private var groupOfName: [(stamp: Int, group: Int)] = []
    private var stamp = 0

    /// A merged set: the fields whose subfields it merges (positions in `table`).
    private struct Key: Hashable {
        let shapeOnly: Bool
        let fields: [Int]
        private let hash: Int

        init(shapeOnly: Bool, fields: [Int]) {
            self.shapeOnly = shapeOnly
            self.fields = fields
            var hasher = Hasher()
            hasher.combine(shapeOnly)
            hasher.combine(fields)
            hash = hasher.finalize()
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }

        static func == (a: Key, b: Key) -> Bool {
            a.hash == b.hash && a.shapeOnly == b.shapeOnly && a.fields == b.fields
        }
    }

    /// What the checks compare of a field, as numbers (`interned`).
    private struct Facts {
        /// The field's name.
        var field: Int
        /// Its arguments, printed with sorted names; 0 for none.
        var arguments: Int
        /// What its type's response looks like; -1 for a field not defined.
        var shape: Int
        /// Its `@stream` arguments; 0 when not streamed.
        var stream: Int
        /// Its parent object type; -1 for an abstract or unknown parent.
        var objectType: Int
        var hasSubfields: Bool
    }

    /// Each field's facts (as `table`), found when it is first compared.
    private var knownFacts: [Facts?] = []
    private var shapes: [ObjectIdentifier: Int] = [:]
    private var interned: [String: Int] = ["": 0]
    private var objectTypes: [ObjectIdentifier: Int] = [:]

    /// Every field met, once; sets hold their positions here.
    private var table: [FieldEntry] = []
    /// Each field's response name, by number (as `table`).
    private var nameOf: [Int] = []

    private struct Direct {
        var fields: [Int] = []
        /// Fragment numbers; -1 for a fragment not defined.
        var spreads: [Int] = []
        /// Found inside a set that merges: it merges.
        var covered = false
    }

    /// Fields (positions in `table`), and the selection sets they came from (in `directs`).
    private struct FieldSet {
        var fields: [Int] = []
        var selectionSets: [Int] = []
    }

    init(context: ValidationContext) {
        self.context = context
        workLeft = Self.workLimit + Self.workPerByte * context.source.body.utf8.count
    }

    /// Whether the verdict has work left in its budget (past it, graphql-js
    /// 16's walk decides, and what that walk remembers must be as it has it).
    var hasWorkLeft: Bool { workLeft > 0 }

    /// Whether the fields of `selectionSet`, fragments expanded, can merge.
    func verdict(_ parentType: GraphQLNamedType?, _ selectionSet: SelectionSet) -> Verdict {
        if let known = directOfSelectionSet[selectionSet.location], directs[known].covered { return .merges }
        guard workLeft > 0 else { return .unknown }
        // Only a spread of a fragment found to merge: its fields are the fragment's.
        if selectionSet.selections.count == 1, case .fragmentSpread(let spread) = selectionSet.selections[0],
            let number = fragmentNumbers[spread.name.value], directOfFragment[number] >= 0,
            directs[directOfFragment[number]].covered
        {
            return .merges
        }
        var depthExceeded = false
        reliedOnDeciding = false
        pendingCover.removeAll(keepingCapacity: true)
        let fields = expand(parentType, selectionSet)
        let conflict =
            sameResponseShape(fields, depth: 0, &depthExceeded)
            ?? fieldsCanMerge(fields, depth: 0, &depthExceeded)
        if let conflict { return .conflict(conflict) }
        guard workLeft > 0 && !depthExceeded else { return .unknown }
        if !reliedOnDeciding {
            for index in fields.selectionSets + pendingCover { directs[index].covered = true }
        }
        return .merges
    }

    // MARK: - The two checks

    /// FieldsInSetCanMerge, less the response shapes (`sameResponseShape`
    /// checks those over a superset): fields with one response name that are
    /// not mutually exclusive must be the same field with the same arguments,
    /// and their subfields, merged, must merge in turn.
    private func fieldsCanMerge(_ set: FieldSet, depth: Int, _ depthExceeded: inout Bool) -> Conflict? {
        var partitions: [[Int]] = []
        // Every group of this level first, then their subfields: a conflict
        // near the top is found before a deep chain of fragments spends the budget.
        for group in grouped(set) where group.count > 1 {
            for partition in notMutuallyExclusive(group) where partition.count > 1 {
                let first = facts(partition[0])
                for position in partition.dropFirst() {
                    workLeft -= 1
                    let other = facts(position)
                    if first.field != other.field {
                        let (node1, node2) = (table[partition[0]].node, table[position].node)
                        return conflict(
                            partition[0], position, "\"\(node1.name.value)\" and \"\(node2.name.value)\" are different fields")
                    }
                    if first.arguments != other.arguments {
                        return conflict(partition[0], position, "they have differing arguments")
                    }
                }
                partitions.append(partition)
            }
        }
        for partition in partitions {
            if let found = subfieldConflict(partition, shapeOnly: false, depth: depth, &depthExceeded) { return found }
            if workLeft <= 0 { return nil }
        }
        return nil
    }

    /// SameResponseShape: fields with one response name, mutually exclusive
    /// or not, must return the same shape (and be streamed alike), and so
    /// must their subfields, merged.
    private func sameResponseShape(_ set: FieldSet, depth: Int, _ depthExceeded: inout Bool) -> Conflict? {
        let groups = grouped(set).filter { $0.count > 1 }
        for group in groups {
            let first = facts(group[0])
            let typed = group.first { facts($0).shape >= 0 }
            for position in group.dropFirst() {
                workLeft -= 1
                let other = facts(position)
                if first.stream != other.stream {
                    return conflict(group[0], position, "they have differing stream directives")
                }
                if let typed, other.shape >= 0, facts(typed).shape != other.shape {
                    let type1 = table[typed].definition!.type, type2 = table[position].definition!.type
                    return conflict(typed, position, "they return conflicting types \"\(type1)\" and \"\(type2)\"")
                }
            }
        }
        for group in groups {
            if let found = subfieldConflict(group, shapeOnly: true, depth: depth, &depthExceeded) { return found }
            if workLeft <= 0 { return nil }
        }
        return nil
    }

    /// The conflict among the merged subfields of `group`, decided once per
    /// set of fields, as a conflict of the group's response name.
    private func subfieldConflict(_ group: [Int], shapeOnly: Bool, depth: Int, _ depthExceeded: inout Bool) -> Conflict? {
        let withSubfields = group.filter { facts($0).hasSubfields }
        // One selection set alone is checked where it stands.
        guard withSubfields.count > 1 else { return nil }
        guard depth < Self.depthLimit else {
            depthExceeded = true
            return nil
        }
        let key = Key(shapeOnly: shapeOnly, fields: withSubfields)
        workLeft -= withSubfields.count
        var found: Conflict?
        if let known = decided[key] {
            found = known
        } else if deciding.contains(key) {
            reliedOnDeciding = true
        } else {
            deciding.insert(key)
            let relied = reliedOnDeciding
            reliedOnDeciding = false
            // Its own: one cut short below is not cached, whatever happened before it.
            var cutShort = false
            let subfields = expand(withSubfields.map(directOfSubfields(of:)))
            found =
                shapeOnly
                ? sameResponseShape(subfields, depth: depth + 1, &cutShort)
                : fieldsCanMerge(subfields, depth: depth + 1, &cutShort)
            if cutShort { depthExceeded = true }
            deciding.remove(key)
            // Kept only when decided on its own: not cut short, not relying on a set still being decided.
            if workLeft > 0 && !reliedOnDeciding && !cutShort {
                decided[key] = .some(found)
                if found == nil && !shapeOnly { pendingCover.append(contentsOf: subfields.selectionSets) }
            }
            reliedOnDeciding = reliedOnDeciding || relied
        }
        guard let found else { return nil }
        let (first, second) = (table[withSubfields[0]].node, table[withSubfields[1]].node)
        return Conflict(
            responseName: first.responseKey, reason: .subfields([(found.responseName, found.reason)]),
            fields1: [first] + found.fields1, fields2: [second] + found.fields2)
    }

    // MARK: - Sets of fields

    /// The fields of some selection sets (in `directs`), through inline
    /// fragments and fragment spreads (each fragment once).
    private func expand(_ selectionSets: [Int]) -> FieldSet {
        var set = FieldSet()
        stamp += 1
        // Depth first, as spreads are met; a stack, not recursion, for a long chain of fragments.
        var pending = Array(selectionSets.reversed())
        while let index = pending.popLast() {
            workLeft -= 1 + directs[index].fields.count
            set.fields.append(contentsOf: directs[index].fields)
            set.selectionSets.append(index)
            // Pushed last first, so that the first spread is expanded next.
            for fragment in directs[index].spreads.reversed() where fragment >= 0 && fragmentSeen[fragment] != stamp {
                fragmentSeen[fragment] = stamp
                if let own = directOfFragment(fragment) { pending.append(own) }
            }
        }
        return set
    }

    private func expand(_ parentType: GraphQLNamedType?, _ selectionSet: SelectionSet) -> FieldSet {
        expand([direct(parentType, selectionSet)])
    }

    private func directOfSubfields(of field: Int) -> Int {
        if directOfSubfields[field] >= 0 { return directOfSubfields[field] }
        let entry = table[field]
        let index = direct(entry.definition?.type.namedType, entry.node.selectionSet!)
        directOfSubfields[field] = index
        return index
    }

    private func directOfFragment(_ number: Int) -> Int? {
        if directOfFragment[number] >= 0 { return directOfFragment[number] }
        guard let fragment = context.fragment(named: fragmentNames[number]) else { return nil }
        let index = direct(context.schema.type(named: fragment.typeCondition.name.value), fragment.selectionSet)
        directOfFragment[number] = index
        return index
    }

    /// A selection set's own fields, through its inline fragments, and the
    /// fragments it spreads: its position in `directs`.
    private func direct(_ parentType: GraphQLNamedType?, _ selectionSet: SelectionSet) -> Int {
        let location = selectionSet.location
        if location != .none, let known = directOfSelectionSet[location] { return known }
        var own = Direct()
        func visit(_ parentType: GraphQLNamedType?, _ selectionSet: SelectionSet) {
            for index in selectionSet.selections.indices {
                switch selectionSet.selections[index] {
                case .field(let field):
                    own.fields.append(table.count)
                    table.append(FieldEntry(field, on: parentType))
                    knownFacts.append(nil)
                    nameOf.append(number(of: field.responseKey))
                    directOfSubfields.append(-1)
                case .fragmentSpread(let spread):
                    own.spreads.append(fragmentNumber(spread.name.value))
                case .inlineFragment(let inline):
                    let type = inline.typeCondition.map { context.schema.type(named: $0.name.value) } ?? parentType
                    visit(type, inline.selectionSet)
                }
            }
        }
        visit(parentType, selectionSet)
        directs.append(own)
        if location != .none { directOfSelectionSet[location] = directs.count - 1 }
        return directs.count - 1
    }

    private func fragmentNumber(_ name: String) -> Int {
        if let known = fragmentNumbers[name] { return known }
        guard context.fragment(named: name) != nil else { return -1 }
        let number = fragmentNumbers.count
        fragmentNumbers[name] = number
        fragmentNames.append(name)
        directOfFragment.append(-1)
        fragmentSeen.append(0)
        return number
    }

    private func number(of responseName: String) -> Int {
        if let known = responseNames[responseName] { return known }
        let number = responseNames.count
        responseNames[responseName] = number
        groupOfName.append((0, 0))
        return number
    }

    /// The fields of `set` by response name, in the order the names first appear.
    private func grouped(_ set: FieldSet) -> [[Int]] {
        stamp += 1
        var groups: [[Int]] = []
        for position in set.fields {
            let name = nameOf[position]
            let (seen, group) = groupOfName[name]
            if seen == stamp {
                groups[group].append(position)
            } else {
                groupOfName[name] = (stamp, groups.count)
                groups.append([position])
            }
        }
        return groups
    }

    /// The largest sets of `group` with no two fields mutually exclusive:
    /// the fields on each object type with those on abstract or unknown types.
    private func notMutuallyExclusive(_ group: [Int]) -> [[Int]] {
        let firstType = facts(group[0]).objectType
        if firstType >= 0, group.allSatisfy({ facts($0).objectType == firstType }) { return [group] }
        var onObjects: [[Int]] = []
        var objectIndex: [Int: Int] = [:]
        var elsewhere: [Int] = []
        for field in group {
            let type = facts(field).objectType
            guard type >= 0 else {
                elsewhere.append(field)
                continue
            }
            if let position = objectIndex[type] {
                onObjects[position].append(field)
            } else {
                objectIndex[type] = onObjects.count
                onObjects.append([field])
            }
        }
        if onObjects.isEmpty { return [elsewhere] }
        return onObjects.map { $0 + elsewhere }
    }

    private func facts(_ position: Int) -> Facts {
        if let known = knownFacts[position] { return known }
        let found = facts(of: table[position].node, on: table[position].parentType, table[position].definition)
        knownFacts[position] = found
        return found
    }

    private func facts(of field: Field, on parentType: GraphQLNamedType?, _ definition: GraphQLField?) -> Facts {
        var objectType = -1
        if let parentType, parentType.kind == .object {
            let id = ObjectIdentifier(parentType)
            if let known = objectTypes[id] {
                objectType = known
            } else {
                objectType = objectTypes.count
                objectTypes[id] = objectType
            }
        }
        var stream = 0
        if let directive = field.directives.first(where: { $0.name.value == "stream" }) {
            stream = intern("@" + OverlappingFieldsCanBeMergedRule.stringifyArguments(directive.arguments))
        }
        return Facts(
            field: intern(field.name.value),
            arguments: field.arguments.isEmpty ? 0 : intern(OverlappingFieldsCanBeMergedRule.stringifyArguments(field.arguments)),
            shape: definition.map(shape(of:)) ?? -1,
            stream: stream, objectType: objectType, hasSubfields: field.selectionSet != nil)
    }

    private func intern(_ text: String) -> Int {
        if let known = interned[text] { return known }
        interned[text] = interned.count
        return interned.count - 1
    }

    private func shape(of definition: GraphQLField) -> Int {
        let id = ObjectIdentifier(definition)
        if let known = shapes[id] { return known }
        let shape = intern(Self.shape(of: definition.type))
        shapes[id] = shape
        return shape
    }

    /// Types that merge have the same shape (`doTypesConflict`): the same
    /// lists and non-nulls around the same leaf type, or any composite type.
    private static func shape(of type: GraphQLType) -> String {
        switch type {
        case .list(let inner): "[\(shape(of: inner))]"
        case .nonNull(let inner): "\(shape(of: inner))!"
        case .named(let named): named.isLeafType ? named.name : "{}"
        }
    }

    private func conflict(_ field1: Int, _ field2: Int, _ message: String) -> Conflict {
        let (node1, node2) = (table[field1].node, table[field2].node)
        return Conflict(responseName: node1.responseKey, reason: .message(message), fields1: [node1], fields2: [node2])
    }
}
