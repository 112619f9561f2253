import Testing

@testable import GraphQL

/// The schema's name tables and validation's small name sets answer as
/// `Dictionary` and `Set` would, on both sides of every threshold.
@Suite struct NameLookupTests {
    /// Names of every length up to past two words, long ones heap-allocated,
    /// non-ASCII ones too, and pairs that differ only in their last byte.
    private static let names: [String] = {
        var names: [String] = ["", "a", "é", "Ünïcødé_type", String(repeating: "x", count: 300)]
        for count in 1...40 {
            let base = String((0..<count).map { Character(UnicodeScalar(UInt8(97 + ($0 * 5 + count) % 26))) })
            names.append(base)
            names.append(String(base.dropLast()) + "_")
        }
        return names
    }()

    @Test func aNameTableFindsEveryNameAndNothingElse() {
        for size in [0, 1, 2, 7, 8, 9, 30, Self.names.count] {
            let stored = Array(Self.names.prefix(size))
            let table = NameTable(stored.enumerated().map { ($1, $0) })
            var expected: [String: Int] = [:]
            for (index, name) in stored.enumerated() where expected[name] == nil { expected[name] = index }
            #expect(table.count == expected.count)
            for name in Self.names + ["missing", "A", "a ", String(repeating: "x", count: 299)] {
                #expect(table[name] == expected[name], "\(size) names, looking up \(name.debugDescription)")
            }
        }
    }

    @Test func theFirstValueForARepeatedNameIsKept() {
        let table = NameTable([("Dog", 1), ("Cat", 2), ("Dog", 3)])
        #expect(table["Dog"] == 1)
        #expect(table["Cat"] == 2)
        #expect(table.count == 2)
    }

    @Test func aNameTableFindsNamesMadeAnotherWay() {
        let table = NameTable(Self.names.enumerated().map { ($1, $0) })
        for (index, name) in Self.names.enumerated() {
            // The same text in another string: a substring's copy.
            let remade = String(("<" + name + ">").dropFirst().dropLast())
            #expect(table[remade] == Self.names.firstIndex(of: name), "\(index)")
        }
    }

    /// Names whose home is the last slot of an eight-slot table (three names
    /// or fewer make one): the second and third probe past the end, to the start.
    private static func namesHomedAtTheLastSlot(_ count: Int) -> [String] {
        var found: [String] = []
        var candidate = 0
        while found.count < count {
            let name = "n\(candidate)"
            if NameTable<Int>.hash(name) & 7 == 7 { found.append(name) }
            candidate += 1
        }
        return found
    }

    @Test func probesWrapPastTheEndAndARepeatFoundAwayFromHomeKeepsItsFirstValue() {
        let homed = Self.namesHomedAtTheLastSlot(4)
        // The second name lands in slot 0, the third in slot 1; the repeat
        // of the second must be found there, not stored again.
        let table = NameTable([(homed[0], 0), (homed[1], 1), (homed[2], 2), (homed[1], 3)])
        #expect(table.count == 3)
        #expect(table[homed[0]] == 0)
        #expect(table[homed[1]] == 1)
        #expect(table[homed[2]] == 2)
        // A name not there, from the same home, walks the whole run to slot 2.
        #expect(table[homed[3]] == nil)
    }

    @Test func namesAreComparedByTheirBytesAsGraphQLJSComparesThem() {
        // Canonically equivalent to "Key" (a Kelvin sign), which Swift's
        // `==` calls equal: graphql-js does not, nor does a name lookup.
        let kelvin = "\u{212A}ey"
        #expect(kelvin == "Key")
        for size in [1, 3, 20] {
            let names = ["Key"] + (0..<size).map { "name\($0)" }
            let table = NameTable(names.enumerated().map { ($1, $0) })
            #expect(table["Key"] == 0)
            #expect(table[kelvin] == nil, "\(size)")
        }
    }

    @Test func aNameSetAnswersAsASetOnEitherSideOfItsScanLimit() {
        for size in [0, 1, 7, 8, 9, 10, 64] {
            var names = NameSet()
            var reference: Set<String> = []
            for name in Self.names.prefix(size) + Self.names.prefix(size / 2) {
                let inserted = names.insert(name)
                #expect(inserted == reference.insert(name).inserted)
            }
            for name in Self.names + ["missing"] {
                #expect(names.contains(name) == reference.contains(name), "\(size) names, \(name.debugDescription)")
            }
            names.removeAll()
            #expect(!names.contains(Self.names[1]))
            let reinserted = names.insert(Self.names[1])
            #expect(reinserted)
        }
    }

    @Test func aSchemaFindsTypesFieldsAndDirectivesPastTheScanLimit() throws {
        // Twenty fields and input fields: looked up through the index, not the scan.
        let fields = (0..<20).map { "field\($0): Int" }.joined(separator: "\n")
        let schema = try buildSchema(
            """
            directive @mark(level: Int) on FIELD
            type Query { \(fields)\n wide: Wide\n small: Small\n key: Key }
            type Wide implements Named & Node { \(fields)\n name: String\n id: ID }
            interface Named { name: String }
            interface Node { id: ID }
            interface Pet implements Named { name: String }
            type Dog implements Pet & Named { name: String }
            input Filter { \(fields) }
            type Small { Key: Int }
            type Key { id: ID }
            """
        )
        let wide = try #require(schema.type(named: "Wide"))
        for index in 0..<20 { #expect(wide.field(named: "field\(index)")?.name == "field\(index)") }
        #expect(wide.field(named: "field20") == nil)
        #expect(schema.type(named: "Filter")?.inputField(named: "field19")?.name == "field19")
        #expect(schema.type(named: "Filter")?.inputField(named: "field") == nil)
        // Found by their bytes whether a type's few fields are scanned or its many looked up.
        let small = try #require(schema.type(named: "Small"))
        #expect(small.field(named: "Key") != nil)
        #expect(small.field(named: "\u{212A}ey") == nil)
        #expect(wide.field(named: "\u{212A}ey") == nil)
        #expect(schema.type(named: "\u{212A}ey") == nil)
        #expect(schema.directive(named: "mark")?.name == "mark")
        #expect(schema.directive(named: "skip")?.name == "skip")
        #expect(schema.directive(named: "Mark") == nil)
        #expect(schema.type(named: "String")?.name == "String")
        #expect(schema.type(named: "__Schema")?.name == "__Schema")
        #expect(schema.type(named: "string") == nil)
        let named = try #require(schema.type(named: "Named"))
        let dog = try #require(schema.type(named: "Dog"))
        let pet = try #require(schema.type(named: "Pet"))
        #expect(schema.possibleTypes(of: named).map(\.name) == ["Wide", "Dog"])
        #expect(schema.possibleTypes(of: try #require(schema.type(named: "Node"))).map(\.name) == ["Wide"])
        #expect(schema.isSubType(named, pet))
        #expect(schema.isSubType(pet, dog))
        #expect(!schema.isSubType(pet, wide))
        #expect(schema.possibleTypes(of: dog).isEmpty)
    }
}
