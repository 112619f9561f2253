import Foundation
import GraphQL
import TestSupport
import Testing

/// `huddle format` keeps every comment: the canonical print with the
/// source's comments woven back, still the same document, stable when
/// formatted again.
@Suite struct PrintWithCommentsTests {
    static func format(_ text: String) throws -> String {
        try printKeepingComments(Source(body: text))
    }

    @Test func commentsStayBesideWhatTheyDescribe() throws {
        let text = """
            # The viewer's page.
            query Me($first: Int = 10) { # trailing the brace
              me {
                # who they are
                id name # their name
                friends(first: $first,   # how many
                  after: null) { id }
              }
            }
            # between definitions
            fragment F on User { id }
            # the end

            """
        #expect(
            try Self.format(text) == """
                # The viewer's page.
                query Me($first: Int = 10) { # trailing the brace
                  me {
                    # who they are
                    id
                    name # their name
                    friends(first: $first, after: null) { # how many
                      id
                    }
                  }
                }

                # between definitions
                fragment F on User {
                  id
                }
                # the end

                """)
    }

    @Test func aDocumentWithoutCommentsIsThePrintersOwn() throws {
        let text = "{ a(x: 1) { b } }"
        #expect(try Self.format(text) == Printer.print(try parse(text)) + "\n")
    }

    @Test func anAnonymousQueryLosesItsKeywordButNotItsComment() throws {
        #expect(try Self.format("query # why\n{ a }") == "# why\n{\n  a\n}\n")
    }

    @Test func commentsNeverLandInsideABlockString() throws {
        let text = #"""
            type T {
              f(
                # before the argument
                a: String = """
                line one
                  line two
                """ # after the default
                b: Int # second
              ): Int
            }
            """#
        let formatted = try Self.format(text)
        try expectSameDocument(formatted, as: text, comments: ["# before the argument", "# after the default", "# second"])
    }

    @Test func twoTrailingCommentsOnOneJoinedLineKeepTheirOrder() throws {
        let formatted = try Self.format("{ f(a: 1 # one\n b: 2 # two\n) }")
        #expect(formatted == "{\n  f(a: 1, b: 2) # one\n  # two\n}\n")
        #expect(try Self.format(formatted) == formatted)
    }

    /// Comments put at random between the tokens of the kitchen sinks (a
    /// seeded generator, 600 documents): each comes back once, in order,
    /// the document unchanged, formatting again changes nothing.
    @Test(arguments: ["kitchen-sink", "schema-kitchen-sink"])
    func generatedCommentsSurviveFormatting(_ fixture: String) throws {
        let url = try #require(Bundle.module.url(forResource: fixture, withExtension: "graphql", subdirectory: "Fixtures"))
        let base = try String(contentsOf: url, encoding: .utf8)
        let plain = Printer.print(try parse(base, options: .trusted)) + "\n"
        // Places between tokens: after each space or newline of the printed form.
        let gaps = plain.utf8.indices.filter { plain.utf8[$0] == 0x20 || plain.utf8[$0] == 0x0A }
        var generator = SeededGenerator(seed: fixture == "kitchen-sink" ? 7 : 11)
        for round in 0..<300 {
            var text = Array(plain.utf8)
            var inserted: [(Int, String)] = []
            for index in 0..<Int.random(in: 1...6, using: &generator) {
                let gap = gaps.randomElement(using: &generator)!
                inserted.append((plain.utf8.distance(from: plain.utf8.startIndex, to: gap), "# c\(round)-\(index)"))
            }
            // Inserted from the back, so that offsets hold; a comment needs a line end after it.
            for (offset, comment) in inserted.sorted(by: { $0.0 > $1.0 }) {
                text.insert(contentsOf: Array((" " + comment + "\n").utf8), at: offset + 1)
            }
            let commented = String(decoding: text, as: UTF8.self)
            guard (try? parse(commented, options: .trusted)) != nil else { continue }  // a comment inside a string
            let formatted = try Self.format(commented)
            let expected = commentsOf(commented)
            try expectSameDocument(formatted, as: commented, comments: expected)
        }
    }

    /// Comments put into the untidy source itself (after `{`, `(` and `,`,
    /// lines that the printer joins or splits): still every comment, in
    /// order. (A comment that fell inside a string changes the document and
    /// that sample is passed over.)
    @Test func commentsInTheSourcesOwnLayoutKeepTheirOrder() throws {
        let url = try #require(Bundle.module.url(forResource: "kitchen-sink", withExtension: "graphql", subdirectory: "Fixtures"))
        let base = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n")
        let printed = Printer.print(try parse(base, options: .trusted))
        let gaps = base.utf8.indices.filter { [0x7B, 0x28, 0x2C].contains(base.utf8[$0]) }
        var generator = SeededGenerator(seed: 23)
        var checked = 0
        for round in 0..<300 {
            var text = Array(base.utf8)
            var inserted: [(Int, String)] = []
            for index in 0..<Int.random(in: 1...8, using: &generator) {
                let gap = gaps.randomElement(using: &generator)!
                inserted.append((base.utf8.distance(from: base.utf8.startIndex, to: gap), "# s\(round)-\(index)"))
            }
            for (offset, comment) in inserted.sorted(by: { $0.0 > $1.0 }) {
                // On a line of its own, or trailing: both kinds.
                let own = comment.hasSuffix("0") || comment.hasSuffix("3")
                text.insert(contentsOf: Array(((own ? "\n" : " ") + comment + "\n").utf8), at: offset + 1)
            }
            let commented = String(decoding: text, as: UTF8.self)
            guard let document = try? parse(commented, options: .trusted), Printer.print(document) == printed else { continue }
            checked += 1
            try expectSameDocument(try Self.format(commented), as: commented, comments: commentsOf(commented))
        }
        #expect(checked > 200)
    }

    @Test func aCommentBeforeTheNextArgumentStaysAfterTheOneBefore() throws {
        let formatted = try Self.format(
            "query Feed(\n  $first: Int # page size\n  # the cursor, from pageInfo\n  $after: String\n) { me { id } }\n")
        #expect(
            formatted == "query Feed($first: Int, $after: String) { # page size\n  # the cursor, from pageInfo\n  me {\n    id\n  }\n}\n")
    }

    private func commentsOf(_ text: String) -> [String] {
        // The fixtures' strings hold no '#'.
        text.split(separator: "\n").compactMap { line in line.firstIndex(of: "#").map { String(line[$0...]) } }
    }

    private func expectSameDocument(_ formatted: String, as original: String, comments: [String]) throws {
        #expect(
            Printer.print(try parse(formatted, options: .trusted)) == Printer.print(try parse(original, options: .trusted)), "\(formatted)")
        #expect(commentsOf(formatted) == comments, "\(formatted)")
        #expect(try Self.format(formatted) == formatted, "not stable: \(formatted)")
    }
}
