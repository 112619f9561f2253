import Foundation
import GraphQL
import Testing

/// The language service an editor asks as a document is written: completions
/// at a cursor (written `|` in these documents), diagnostics, format, operations.
@Suite struct LanguageServiceTests {
    static let sdl = """
        type Query {
          "The signed-in user."
          me: User
          user(id: ID!, includeArchived: Boolean = false): User
          search(text: String!, kind: Kind, filter: Filter, first: Int): [Result!]!
          old: Int @deprecated(reason: "Use me.")
        }
        type Mutation { rename(name: String!): User }
        type Subscription { renamed: User }
        interface Named { name: String }
        type User implements Named { id: ID! name: String friends(first: Int, after: String @deprecated(reason: "Pages.")): [User!]! pet: Pet }
        type Pet implements Named { name: String species: Kind }
        union Result = User | Pet
        enum Kind { DOG CAT BIRD @deprecated(reason: "Gone.") }
        input Filter { kind: Kind near: String @deprecated(reason: "Ignored.") tags: [String!] nested: Filter }
        """

    let service = LanguageService(schema: try! buildSchema(sdl))

    /// The labels offered at the `|` in `document`, and the replaced word.
    func complete(_ document: String) -> (labels: [String], word: String) {
        let parts = document.split(separator: "|", omittingEmptySubsequences: false)
        precondition(parts.count == 2, "one cursor")
        let before = String(parts[0])
        let lines = before.split(separator: "\n", omittingEmptySubsequences: false)
        let cursor = TextPosition(line: lines.count - 1, character: lines.last!.utf16.count)
        let text = before + parts[1]
        let list = service.completions(in: text, at: cursor)
        let textLines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(list.from.line == list.to.line)
        let line = Array(textLines[list.from.line].utf16)
        let word = String(decoding: line[list.from.character..<list.to.character], as: UTF16.self)
        return (list.items.map(\.label), word)
    }

    @Test func fieldsOfTheSelectionSetsType() {
        #expect(complete("{ |").labels == ["me", "user", "search", "__schema", "__type", "__typename", "old"])
        #expect(complete("{ me { |").labels == ["id", "name", "friends", "pet", "__typename"])
        #expect(complete("{ me { pet { na| } }") == (["name", "__typename"], "na"))
        #expect(complete("query Q { user(id: 1) { friends { pe| } } }") == (["pet", "__typename"], "pe"))
        #expect(complete("{ me { id } |").labels.first == "me")
        #expect(complete("{ renamedUser: me { |").labels.contains("friends"))
        #expect(complete("{ x: |").labels.first == "me")
        #expect(complete("mutation { |").labels == ["rename", "__typename"])
        #expect(complete("subscription { r|").labels == ["renamed"])
        // A union has no fields of its own.
        #expect(complete("{ search(text: \"a\") { |").labels == ["__typename"])
    }

    @Test func typeConditionsAndFragments() {
        #expect(Set(complete("{ search(text: \"a\") { ... on |").labels) == ["User", "Pet", "Result", "Named"])
        #expect(complete("{ me { ... on N|").labels == ["Named"])
        #expect(
            complete("{ me { ...| } }\nfragment UserParts on User { id }\nfragment PetParts on Pet { name }").labels
                == ["UserParts", "on"]
        )
        #expect(complete("{ search(text: \"a\") { ...P| } } fragment PetParts on Pet { name }").labels == ["PetParts"])
        #expect(complete("fragment F |").labels == ["on"])
        #expect(complete("fragment F on |").labels.contains("Result"))
        #expect(complete("fragment F on User { fr|").labels == ["friends"])
    }

    @Test func argumentsAndValues() {
        #expect(complete("{ user(|").labels == ["id", "includeArchived"])
        #expect(complete("{ user(id: 1, |").labels == ["includeArchived"])
        #expect(complete("{ me { friends(a|").labels == ["after"])
        #expect(complete("{ search(text: \"x\", kind: |").labels == ["DOG", "CAT", "null", "BIRD"])
        #expect(complete("{ search(text: \"x\", kind: C|").labels == ["CAT"])
        #expect(complete("{ user(id: 1, includeArchived: |").labels == ["true", "false", "null"])
        #expect(complete("{ search(text: \"x\", filter: { |").labels == ["kind", "tags", "nested", "near"])
        #expect(complete("{ search(text: \"x\", filter: { kind: DOG, t|").labels == ["tags", "nested"])
        #expect(complete("{ search(text: \"x\", filter: { kind: |").labels == ["DOG", "CAT", "null", "BIRD"])
        #expect(complete("{ search(text: \"x\", filter: { tags: [|").labels == [])
    }

    @Test func variablesThatFitThePosition() {
        let document = "query Q($kind: Kind, $name: String!, $flag: Boolean) { search(text: $|"
        #expect(complete(document) == (["name"], ""))
        #expect(complete("query Q($kind: Kind, $name: String!) { search(text: \"x\", kind: $k|").labels == ["kind"])
        #expect(complete("query Q($kind: Kind) { search(text: \"x\", kind: |").labels.contains("$kind"))
        let types = Set(complete("query Q($a: |").labels)
        #expect(types.isSuperset(of: ["Boolean", "String", "ID", "Kind", "Filter", "Int"]))
        #expect(types.isDisjoint(with: ["User", "Result", "Named", "__Type"]))
        #expect(complete("query Q($a: [Fil|").labels == ["Filter"])
    }

    @Test func directivesAllowedWhereTheyAre() {
        #expect(Set(complete("{ me @|").labels) == ["include", "skip"])
        #expect(Set(complete("query Q @|").labels) == [])
        #expect(complete("{ me @sk|").labels == ["skip"])
        #expect(complete("{ me @include(|").labels == ["if"])
    }

    @Test func keywordsAndNothingWhereNothingFits() {
        #expect(complete("|").labels == ["query", "mutation", "subscription", "fragment"])
        #expect(complete("{ me { id } }\n|").labels == ["query", "mutation", "subscription", "fragment"])
        #expect(complete("qu|").labels == ["query"])
        #expect(complete("query |").labels == [])
        #expect(complete("{ search(text: \"a|\") }").labels == [])
        #expect(complete("{ me # a comment |\n}").labels == [])
        #expect(complete("{ me } } |").labels == [])
        // Text after the cursor, even broken, does not matter.
        #expect(complete("{ me { na| \"unterminated").labels == ["name", "__typename"])
    }

    @Test func positionsCountUTF16CodeUnits() {
        // "é" is one UTF-16 unit and two UTF-8 bytes; "😀" two and four.
        let document = "# é😀\n{ me { pet { n"
        let list = service.completions(in: document, at: TextPosition(line: 1, character: 14))
        #expect(list.items.map(\.label) == ["name", "__typename"])
        #expect(list.from == TextPosition(line: 1, character: 13))
        let text = "{ user(id: \"é😀\") { na"
        let result = service.completions(in: text, at: TextPosition(line: 0, character: 22))
        #expect(result.items.map(\.label) == ["name", "__typename"])
        #expect(result.from == TextPosition(line: 0, character: 20))
        #expect(result.to == TextPosition(line: 0, character: 22))
        // Inside a string nothing is offered.
        #expect(service.completions(in: text, at: TextPosition(line: 0, character: 14)).items.isEmpty)
    }

    @Test func diagnosticsAreTheServersErrors() throws {
        let misspelt = service.analyze("{ me { nmae } }").diagnostics
        #expect(misspelt.map(\.message) == ["Cannot query field \"nmae\" on type \"User\". Did you mean \"name\"?"])
        #expect(misspelt.first?.positions == [TextPosition(line: 0, character: 7)])
        #expect(misspelt.first?.severity == .error)

        let syntax = service.analyze("{ me { name }").diagnostics
        #expect(syntax.map(\.message) == ["Syntax Error: Expected Name, found <EOF>."])
        #expect(syntax.first?.positions == [TextPosition(line: 0, character: 13)])

        let fine = service.analyze("query Q($k: Kind) { search(text: \"a\", kind: $k) { __typename } }").diagnostics
        #expect(fine.isEmpty)

        let deprecated = service.analyze(
            "{ old me { friends(after: \"x\") { id } } search(text: \"a\", kind: BIRD, filter: { near: \"x\" }) { __typename } }"
        ).diagnostics
        #expect(deprecated.map(\.severity) == [.warning, .warning, .warning, .warning])
        #expect(
            deprecated.map(\.message) == [
                "The field Query.old is deprecated. Use me.",
                "Field \"User.friends\" argument \"after\" is deprecated. Pages.",
                "The enum value \"Kind.BIRD\" is deprecated. Gone.",
                "The input field Filter.near is deprecated. Ignored.",
            ]
        )
    }

    @Test func formatPrintsWithTheEnginesPrinter() throws {
        #expect(try service.format("query Q($a:Int=1){me{id,name}}") == "query Q($a: Int = 1) {\n  me {\n    id\n    name\n  }\n}")
        #expect(throws: LanguageService.FormatFailure.self) { try service.format("{ me ") }
    }

    @Test func operationsInOrder() {
        let operations = service.analyze("query A { me { id } }\n\nmutation B { rename(name: \"x\") { id } }\n{ me { id } }").operations
        #expect(operations.map(\.name) == ["A", "B", nil])
        #expect(operations.map(\.type) == [.query, .mutation, .query])
        #expect(operations.map(\.position.line) == [0, 2, 3])
        #expect(service.analyze("query A {").operations.isEmpty)
    }
}

extension LanguageServiceTests {
    /// Nesting deeper than the parser allows offers nothing instead of
    /// recursing without bound; at the limit it still completes.
    @Test func nestingIsBoundedAsTheParsersIs() {
        let limit = ParseOptions.default.maxNestingDepth
        let atLimit = "{ search(text: \"a\", filter: " + String(repeating: "{ nested: ", count: limit - 2) + "{ |"
        #expect(complete(atLimit).labels.isEmpty == false)
        let over = "{ search(text: \"a\", filter: " + String(repeating: "{ nested: ", count: limit) + "{ |"
        #expect(complete(over).labels.isEmpty)
        let deepText = String(repeating: "{ me ", count: 100_000) + "{ "
        let list = service.completions(in: deepText, at: TextPosition(line: 0, character: deepText.utf16.count))
        #expect(list.items.isEmpty)
    }
    /// A small document nested deep prints to megabytes (two spaces a level
    /// a line) and the printer copies each line once a level: refused from
    /// its tree, before printing.
    static func nested(trees: Int, depth: Int) -> String {
        "{"
            + (0..<trees).map { "a\($0):" + String(repeating: "me{", count: depth) + "name" + String(repeating: "}", count: depth) }
            .joined(separator: " ") + "}"
    }

    @Test func formattingCostMeasuresWhatThePrinterWrites() throws {
        for text in [
            Self.nested(trees: 3, depth: 40), "query Q($a: Int) { me { ...F friends(first: 2) { name } } } fragment F on User { id }",
        ] {
            let cost = FormattingCost(of: try parse(Source(body: text)))
            let printed = try service.format(text).utf8.count
            // An estimate: within a fifth of the truth either way.
            #expect(Double(cost.bytes) > Double(printed) * 0.8 && Double(cost.bytes) < Double(printed) * 1.2, "\(cost) \(printed)")
        }
    }

    @Test func formatIsRefusedPastItsLimitsAndServedAtThem() throws {
        let text = Self.nested(trees: 19, depth: 250)
        #expect(text.utf8.count < 20_000)
        guard case .tooLarge(let cost)? = #expect(throws: LanguageService.FormatFailure.self, performing: { try service.format(text) })
        else {
            Issue.record("not refused for its size")
            return
        }
        #expect(cost.bytes > 2_000_000)

        let small = Self.nested(trees: 2, depth: 30)
        let measured = FormattingCost(of: try parse(Source(body: small)))
        var atLimits = service
        (atLimits.maxFormattedBytes, atLimits.maxFormattingCopies) = (measured.bytes, measured.copied)
        #expect(try atLimits.format(small) == Printer.print(try parse(Source(body: small))))
        var overBytes = atLimits
        overBytes.maxFormattedBytes -= 1
        #expect(throws: LanguageService.FormatFailure.self) { try overBytes.format(small) }
        var overCopies = atLimits
        overCopies.maxFormattingCopies -= 1
        #expect(throws: LanguageService.FormatFailure.self) { try overCopies.format(small) }
    }
}

/// The language service at every cursor of real documents: the 147
/// validation fixtures (valid and invalid, against their schema) and the
/// kitchen-sink documents (which mix every syntax). Whatever the text
/// before the cursor, completion answers (never traps) with a range that
/// ends at the cursor and starts on its line, and the diagnostics are the
/// server's own validation errors.
@Suite struct LanguageServiceAtEveryCursorTests {
    static let service = LanguageService(schema: ValidationFixtures.schema)

    static let documents: [String] = {
        let kitchenSinks = ["kitchen-sink", "schema-kitchen-sink"].map { name in
            let url = Bundle.module.url(forResource: name, withExtension: "graphql", subdirectory: "Fixtures")!
            return try! String(contentsOf: url, encoding: .utf8)
        }
        return ValidationCase.all.map(\.query) + kitchenSinks
    }()

    /// Every (line, character) of `text` in UTF-16 units, the end of each line included.
    static func cursors(in text: String) -> [TextPosition] {
        var positions: [TextPosition] = []
        for (line, content) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            for character in 0...content.utf16.count { positions.append(TextPosition(line: line, character: character)) }
        }
        return positions
    }

    @Test func completionAnswersAtEveryCursor() {
        var offered = 0
        for document in Self.documents {
            for cursor in Self.cursors(in: document) {
                let list = Self.service.completions(in: document, at: cursor)
                #expect(list.to == cursor, "\(document) at \(cursor)")
                #expect(list.from.line == cursor.line && list.from.character <= cursor.character)
                offered += list.items.isEmpty ? 0 : 1
            }
        }
        // Most places in these documents have something to offer.
        #expect(offered > 1_000)
    }

    @Test(arguments: ValidationCase.all)
    func diagnosticsAreTheValidationErrors(_ testCase: ValidationCase) {
        let diagnostics = Self.service.analyze(testCase.query).diagnostics.filter { $0.severity == .error }
        #expect(diagnostics.map(\.message) == testCase.errors.map(\.message))
        #expect(
            diagnostics.map { $0.positions.map { "\($0.line + 1):\($0.character + 1)" } }
                == testCase.errors.map { $0.locations.map { "\($0.line):\($0.column)" } })
    }

}
