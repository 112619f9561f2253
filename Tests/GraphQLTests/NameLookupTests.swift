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
        for size in [0, 1, 2, 7, 8, 9, 100, Self.names.count] {
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

    @Test func aNameTableReadsBridgedAndSubstringMadeNamesAlike() {
        let table = NameTable(Self.names.enumerated().map { ($1, $0) })
        for (index, name) in Self.names.enumerated() {
            // The same text, made another way: a shared substring's copy.
            let remade = String(("<" + name + ">").dropFirst().dropLast())
            #expect(table[remade] == Self.names.firstIndex(of: name), "\(index)")
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
            type Query { \(fields)\n wide: Wide }
            type Wide implements Named & Node { \(fields)\n name: String\n id: ID }
            interface Named { name: String }
            interface Node { id: ID }
            interface Pet implements Named { name: String }
            type Dog implements Pet & Named { name: String }
            input Filter { \(fields) }
            """
        )
        let wide = try #require(schema.type(named: "Wide"))
        for index in 0..<20 { #expect(wide.field(named: "field\(index)")?.name == "field\(index)") }
        #expect(wide.field(named: "field20") == nil)
        #expect(schema.type(named: "Filter")?.inputField(named: "field19")?.name == "field19")
        #expect(schema.type(named: "Filter")?.inputField(named: "field") == nil)
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
