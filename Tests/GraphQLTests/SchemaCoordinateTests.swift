import GraphQL
import Testing

@Suite struct SchemaCoordinateTests {
    @Test(arguments: [
        ("User", SchemaCoordinate.type(name: "User")),
        ("User.email", .member(type: "User", member: "email")),
        ("Sport.TENNIS", .member(type: "Sport", member: "TENNIS")),
        ("Query.user(id:)", .argument(type: "Query", field: "user", argument: "id")),
        ("@deprecated", .directive(name: "deprecated")),
        ("@deprecated(reason:)", .directiveArgument(name: "deprecated", argument: "reason")),
        ("__Type.fields(includeDeprecated:)", .argument(type: "__Type", field: "fields", argument: "includeDeprecated")),
    ])
    func parsesEveryKindAndPrintsItBack(_ text: String, _ expected: SchemaCoordinate) throws {
        let coordinate = try parseSchemaCoordinate(text)
        #expect(coordinate == expected)
        #expect(coordinate.description == text)
    }

    @Test(arguments: [
        ("", "Syntax Error: Expected Name, found <EOF>.", 1),
        ("User.", "Syntax Error: Expected Name, found <EOF>.", 6),
        ("User .email", "Syntax Error: Invalid character: \" \".", 5),
        (" User", "Syntax Error: Invalid character: \" \".", 1),
        ("User,", "Syntax Error: Invalid character: \",\".", 5),
        ("User.email(id)", "Syntax Error: Expected \":\", found \")\".", 14),
        ("User.email(id:", "Syntax Error: Expected \")\", found <EOF>.", 15),
        ("User(id:)", "Syntax Error: Expected <EOF>, found \"(\".", 5),
        ("@deprecated.reason", "Syntax Error: Expected <EOF>, found \".\".", 12),
        ("User.email.domain", "Syntax Error: Expected <EOF>, found \".\".", 11),
        ("@", "Syntax Error: Expected Name, found <EOF>.", 2),
        ("1User", "Syntax Error: Invalid character: \"1\".", 1),
        ("Usér", "Syntax Error: Invalid character: U+00E9.", 3),
    ])
    func rejectsMalformedCoordinates(_ text: String, _ message: String, _ column: Int) throws {
        let error = try #require(throws: GraphQLError.self) { try parseSchemaCoordinate(text) }
        #expect(error.message == message)
        #expect(error.locations == [SourceLocation(line: 1, column: column)])
    }
}
