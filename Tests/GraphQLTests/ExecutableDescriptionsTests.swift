import GraphQL
import Testing

/// The September 2025 spec allows descriptions on operations, fragments and
/// variable definitions, which graphql-js 16 rejects; here the spec wins.
@Suite struct ExecutableDescriptionsTests {
    @Test func operationFragmentAndVariableDescriptionsParse() throws {
        let document = try parse(
            """
            "Sessions near the user"
            query Nearby(
              "How many to show"
              $first: Int = 10
              \"""
              Where to look
              \"""
              $near: GeoPoint
            ) { sessions(first: $first, near: $near) { ...Card } }

            \"""What a session card shows\"""
            fragment Card on SportsSession { id }
            """)
        guard case .operation(let operation) = document.definitions[0],
            case .fragment(let fragment) = document.definitions[1]
        else {
            Issue.record("unexpected definitions")
            return
        }
        #expect(operation.description?.value == "Sessions near the user")
        #expect(operation.variableDefinitions.map(\.description?.value) == ["How many to show", "Where to look"])
        #expect(operation.variableDefinitions[1].description?.isBlock == true)
        #expect(fragment.description?.value == "What a session card shows")
    }

    @Test func descriptionsArePrintedAndSurviveARoundTrip() throws {
        let text = """
            "Sessions near the user"
            query Nearby("How many" $first: Int, $after: String) { a }

            "Card" fragment Card on T { id }

            mutation Join(\"""
            Block
            \""" $id: ID!) { join(id: $id) }
            """
        let printed = Printer.print(try parse(text))
        // A description puts each variable on its own line, as graphql-js
        // does for described arguments.
        #expect(
            printed == """
                "Sessions near the user"
                query Nearby(
                  "How many"
                  $first: Int
                  $after: String
                ) {
                  a
                }

                "Card"
                fragment Card on T {
                  id
                }

                mutation Join(
                  \"""Block\"""
                  $id: ID!
                ) {
                  join(id: $id)
                }
                """)
        let options = ParseOptions(recordsLocations: false)
        #expect(try parse(Source(body: printed), options: options) == parse(Source(body: text), options: options))
    }

    @Test func anonymousQueryWithADescriptionKeepsItsKeyword() throws {
        #expect(Printer.print(try parse("\"Why\" query { a }")) == "\"Why\"\nquery {\n  a\n}")
    }

    /// Elsewhere a description is an error, worded and placed as graphql-js 16 does.
    @Test func shorthandQueriesCannotHaveDescriptions() throws {
        let error = try #require(throws: GraphQLError.self) { try parse("\"desc\" { a }") }
        #expect(error.message == "Syntax Error: Unexpected \"{\".")
        #expect(error.locations == [SourceLocation(line: 1, column: 8)])
    }

    @Test func typeExtensionsCannotHaveDescriptions() throws {
        let error = try #require(throws: GraphQLError.self) { try parse("\"desc\" extend type A @d") }
        #expect(error.message == "Syntax Error: Unexpected description, descriptions are supported only on type definitions.")
        #expect(error.locations == [SourceLocation(line: 1, column: 1)])
    }

    @Test func descriptionBeforeAnUnknownWordIsReportedAtTheDescription() throws {
        let error = try #require(throws: GraphQLError.self) { try parse("\"desc\" notAKeyword") }
        #expect(error.message == "Syntax Error: Unexpected description, descriptions are supported only on type definitions.")
        #expect(error.locations == [SourceLocation(line: 1, column: 1)])
    }
}
