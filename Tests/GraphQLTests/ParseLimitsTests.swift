import GraphQL
import Testing

/// Each limit in `ParseOptions`, at its default, and just over it.
@Suite struct ParseLimitsTests {
    func message(parsing text: String, options: ParseOptions = .default) -> String? {
        do {
            _ = try parse(Source(body: text), options: options)
            return nil
        } catch {
            return error.message
        }
    }

    // MARK: Tokens

    @Test func fifteenThousandTokensParse() {
        // `{`, 14,998 fields, `}`
        let text = "{" + String(repeating: " a", count: 14_998) + " }"
        #expect(message(parsing: text) == nil)
    }

    @Test func oneTokenMoreIsRejectedWithGraphQLJSWording() throws {
        let text = "{" + String(repeating: " a", count: 14_999) + " }"
        let error = try #require(throws: GraphQLError.self) { try parse(text) }
        #expect(error.message == "Syntax Error: Document contains more that 15000 tokens. Parsing aborted.")
        // The 15,001st token is the closing brace.
        #expect(error.locations == [SourceLocation(line: 1, column: text.utf8.count)])
    }

    @Test func tokenLimitIsConfigurableAndCanBeLifted() {
        let text = "{" + String(repeating: " a", count: 20_000) + " }"
        #expect(message(parsing: text, options: ParseOptions(maxTokens: 20_002)) == nil)
        #expect(message(parsing: text, options: ParseOptions(maxTokens: 20_001)) != nil)
        #expect(message(parsing: text, options: .trusted) == nil)
    }

    // MARK: Nesting

    func nestedSelections(_ depth: Int) -> String {
        String(repeating: "{ a ", count: depth) + String(repeating: "}", count: depth)
    }

    @Test func selectionsNestedToTheLimitParse() {
        #expect(message(parsing: nestedSelections(256)) == nil)
    }

    @Test func selectionsNestedPastTheLimitAreRejected() throws {
        let error = try #require(throws: GraphQLError.self) { try parse(nestedSelections(257)) }
        #expect(error.message == "Syntax Error: Selections are nested more than 256 levels deep.")
        // At the 257th brace.
        #expect(error.locations == [SourceLocation(line: 1, column: 256 * 4 + 1)])
    }

    @Test func listValuesNestedToTheLimitParse() {
        let text = "{ f(a: " + String(repeating: "[", count: 256) + String(repeating: "]", count: 256) + ") }"
        #expect(message(parsing: text) == nil)
    }

    @Test func valuesNestedPastTheLimitAreRejected() {
        let lists = "{ f(a: " + String(repeating: "[", count: 257) + String(repeating: "]", count: 257) + ") }"
        #expect(message(parsing: lists) == "Syntax Error: Values are nested more than 256 levels deep.")
        let objects = "{ f(a: " + String(repeating: "{x: ", count: 257) + "1" + String(repeating: "}", count: 257) + ") }"
        #expect(message(parsing: objects) == "Syntax Error: Values are nested more than 256 levels deep.")
        let constant = "query ($v: Int = " + String(repeating: "[", count: 257) + String(repeating: "]", count: 257) + ") { a }"
        #expect(message(parsing: constant) == "Syntax Error: Values are nested more than 256 levels deep.")
    }

    @Test func listTypesNestedToTheLimitParse() {
        let text = "query ($v: " + String(repeating: "[", count: 256) + "Int" + String(repeating: "]", count: 256) + ") { a }"
        #expect(message(parsing: text) == nil)
    }

    @Test func listTypesNestedPastTheLimitAreRejected() {
        let query = "query ($v: " + String(repeating: "[", count: 257) + "Int" + String(repeating: "]", count: 257) + ") { a }"
        #expect(message(parsing: query) == "Syntax Error: Types are nested more than 256 levels deep.")
        let sdl = "type T { f: " + String(repeating: "[", count: 257) + "Int" + String(repeating: "]!", count: 257) + " }"
        #expect(message(parsing: sdl, options: .trusted) == "Syntax Error: Types are nested more than 256 levels deep.")
    }

    /// Hostile nesting gives an ordinary error, never a stack overflow, even
    /// with the token limit lifted.
    @Test(arguments: [
        ("{ f(a: ", "[", "Values are nested"),
        ("{ f(a: ", "{x:", "Values are nested"),
        ("", "{ a ", "Selections are nested"),
        ("query ($v: ", "[", "Types are nested"),
        ("", "{", "Expected Name, found \"{\"."),
        ("{ f(a: ", "{", "Expected Name, found \"{\"."),
    ])
    func hundredThousandOpeningBracketsAreAnOrdinarySyntaxError(_ prefix: String, _ opener: String, _ expected: String) {
        let text = prefix + String(repeating: opener, count: 100_000)
        for options in [ParseOptions.default, .trusted] {
            let message = message(parsing: text, options: options)
            #expect(message?.hasPrefix("Syntax Error: " + expected) == true, "\(String(describing: message))")
        }
    }

    @Test func nestingLimitIsConfigurable() {
        let options = ParseOptions(maxNestingDepth: 3)
        #expect(message(parsing: nestedSelections(3), options: options) == nil)
        #expect(message(parsing: nestedSelections(4), options: options) == "Syntax Error: Selections are nested more than 3 levels deep.")
    }

    // MARK: Size

    /// A query padded with a comment to exactly `size` bytes.
    func document(ofSize size: Int) -> String {
        let query = "{ a }\n#"
        return query + String(repeating: "x", count: size - query.utf8.count)
    }

    @Test func documentOfOneMebibyteParses() {
        let text = document(ofSize: 1 << 20)
        #expect(text.utf8.count == 1_048_576)
        #expect(message(parsing: text) == nil)
    }

    @Test func documentOneByteOverOneMebibyteIsRejected() {
        #expect(
            message(parsing: document(ofSize: (1 << 20) + 1))
                == "Syntax Error: Document is 1048577 bytes, more than the limit of 1048576 bytes.")
    }

    @Test func sizeLimitCountsBytesNotCharacters() {
        // 3 bytes per character: 400,000 of them are 1.2 MB.
        let text = "{ a(b: \"" + String(repeating: "€", count: 400_000) + "\") }"
        #expect(message(parsing: text)?.hasPrefix("Syntax Error: Document is ") == true)
        #expect(message(parsing: text, options: .trusted) == nil)
    }
}
