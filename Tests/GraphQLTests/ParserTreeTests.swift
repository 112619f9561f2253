import GraphQL
import Testing

/// The trees the parser builds: cooked values, node kinds and locations.
@Suite struct ParserTreeTests {
    func argumentValue(_ literal: String) throws -> Value {
        let document = try parse("{ f(a: \(literal)) }")
        guard case .operation(let operation) = document.definitions.first,
            case .field(let field) = operation.selectionSet.selections.first,
            let argument = field.arguments.first
        else {
            throw GraphQLError(message: "no argument in \(literal)")
        }
        return argument.value
    }

    func stringValue(_ literal: String) throws -> String? {
        guard case .string(let string) = try argumentValue(literal) else { return nil }
        return string.value
    }

    @Test(arguments: [
        (#""plain""#, "plain"),
        (#""\u00e9\u00C9""#, "éÉ"),
        (#""\u{1F3BE} \u{0}""#, "🎾 \u{0}"),
        (#""\uD83C\uDFC0""#, "🏀"),
        (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t"),
        (#""raw é 😀 stays""#, "raw é 😀 stays"),
        ("\"\"\"\n    Hello,\n      World!\n\n    Yours,\n      GraphQL.\n  \"\"\"", "Hello,\n  World!\n\nYours,\n  GraphQL."),
        ("\"\"\"  first keeps its indent\n  x\"\"\"", "  first keeps its indent\nx"),
        ("\"\"\"a \\\"\"\" b\"\"\"", "a \"\"\" b"),
        ("\"\"\"\\n stays \\u0041\"\"\"", "\\n stays \\u0041"),
        ("\"\"\"crlf\r\n  next\r  cr\"\"\"", "crlf\nnext\ncr"),
        ("\"\"\"\"\"\"", ""),
    ])
    func cooksStringValues(_ literal: String, _ expected: String) throws {
        #expect(try stringValue(literal) == expected)
    }

    @Test func readsEveryKindOfValue() throws {
        guard case .int(let int) = try argumentValue("-12") else {
            Issue.record("not an int")
            return
        }
        #expect(int.value == "-12")
        #expect(int.location == Location(start: 7, end: 10))
        guard case .float(let float) = try argumentValue("6.02e23") else {
            Issue.record("not a float")
            return
        }
        #expect(float.value == "6.02e23")
        guard case .boolean(let boolean) = try argumentValue("false"), !boolean.value else {
            Issue.record("not false")
            return
        }
        guard case .null = try argumentValue("null") else {
            Issue.record("not null")
            return
        }
        guard case .enum(let enumValue) = try argumentValue("TENNIS") else {
            Issue.record("not an enum")
            return
        }
        #expect(enumValue.value == "TENNIS")
        guard case .variable(let variable) = try argumentValue("$v") else {
            Issue.record("not a variable")
            return
        }
        #expect(variable.name.value == "v")
        guard case .list(let list) = try argumentValue("[1 [2] {}]") else {
            Issue.record("not a list")
            return
        }
        #expect(list.values.count == 3)
        guard case .object(let object) = try argumentValue("{x: 1, y: {z: \"w\"}}") else {
            Issue.record("not an object")
            return
        }
        #expect(object.fields.map(\.name.value) == ["x", "y"])
    }

    @Test func everyNodeRecordsTheBytesItSpans() throws {
        let text = "query Q($v: [Int!]! = [1]) @d { alias: f(a: $v) { ...F ... on T { g } } }"
        let document = try parse(text)
        func spelled(_ location: Location) -> String {
            String(decoding: Array(text.utf8)[location.start..<location.end], as: UTF8.self)
        }
        #expect(spelled(document.location) == text)
        guard case .operation(let operation) = document.definitions[0] else {
            Issue.record()
            return
        }
        #expect(spelled(operation.location) == text)
        #expect(spelled(operation.name!.location) == "Q")
        let variable = operation.variableDefinitions[0]
        #expect(spelled(variable.location) == "$v: [Int!]! = [1]")
        #expect(spelled(variable.variable.location) == "$v")
        #expect(spelled(variable.type.location) == "[Int!]!")
        #expect(spelled(variable.defaultValue!.location) == "[1]")
        #expect(spelled(operation.directives[0].location) == "@d")
        guard case .field(let field) = operation.selectionSet.selections[0] else {
            Issue.record()
            return
        }
        #expect(spelled(field.location) == "alias: f(a: $v) { ...F ... on T { g } }")
        #expect(spelled(field.alias!.location) == "alias")
        #expect(spelled(field.arguments[0].location) == "a: $v")
        #expect(field.responseKey == "alias")
        let selections = field.selectionSet!.selections
        #expect(selections.map { spelled($0.location) } == ["...F", "... on T { g }"])
    }

    @Test func locationsAreOmittedWhenNotRecorded() throws {
        let document = try parse(Source(body: "{ a }"), options: ParseOptions(recordsLocations: false))
        #expect(document.location == .none)
        #expect(document.definitions[0].location == .none)
    }

    @Test func linesAndColumnsCountLikeGraphQLJS() throws {
        let source = Source(body: "a\r\nb\rc\nd é😀x")
        #expect(source.location(at: 0) == SourceLocation(line: 1, column: 1))
        #expect(source.location(at: 3) == SourceLocation(line: 2, column: 1))
        #expect(source.location(at: 5) == SourceLocation(line: 3, column: 1))
        #expect(source.location(at: 7) == SourceLocation(line: 4, column: 1))
        // "d é😀x": é is one UTF-16 unit in two bytes, 😀 two units in four bytes.
        #expect(source.location(at: 15) == SourceLocation(line: 4, column: 6))
    }

    @Test func parsesStandaloneValuesAndTypes() throws {
        #expect(Printer.print(try parseValue(Source(body: "{a: [$b, 1]}"))) == "{a: [$b, 1]}")
        #expect(throws: GraphQLError.self) { try parseConstValue(Source(body: "[$b]")) }
        #expect(Printer.print(try parseType(Source(body: " [ String ! ] ! "))) == "[String!]!")
        #expect(throws: GraphQLError.self) { try parseType(Source(body: "String!!")) }
    }
}
