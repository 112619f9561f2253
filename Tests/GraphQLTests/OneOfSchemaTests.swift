import GraphQL
import Testing

/// `@oneOf` input objects (September 2025 spec), which graphql-js 16.6 predates.
@Suite struct OneOfSchemaTests {
    @Test func oneOfIsBuiltPrintedAndIntrospectable() throws {
        let schema = try buildSchema("type Query { a(i: I): Int } input I @oneOf { a: Int b: String }")
        #expect(schema.type(named: "I")?.isOneOf == true)
        #expect(validateSchema(schema).isEmpty)
        #expect(printSchema(schema) == "type Query {\n  a(i: I): Int\n}\n\ninput I @oneOf {\n  a: Int\n  b: String\n}")
        #expect(schema.directive(named: "oneOf")?.locations == [.inputObject])
        let typeFields = schema.type(named: "__Type")?.fields.map(\.name)
        #expect(typeFields?.last == "isOneOf")
    }

    @Test func oneOfFieldsMustBeNullableWithoutDefaults() throws {
        let schema = try buildSchema("type Query { a(i: I): Int } input I @oneOf { a: Int! b: String = \"x\" }")
        let errors = validateSchema(schema)
        #expect(
            errors.map(\.message) == [
                "OneOf input field I.a must be nullable.",
                "OneOf input field I.b cannot have a default value.",
            ])
        #expect(errors.map(\.locations) == [[SourceLocation(line: 1, column: 49)], [SourceLocation(line: 1, column: 54)]])
    }

    @Test func oneOfMayOnlyMarkInputObjects() throws {
        let error = try #require(throws: SchemaBuildError.self) { try buildSchema("type Query @oneOf { a: Int }") }
        #expect(error.errors.map(\.message) == ["Directive \"@oneOf\" may not be used on OBJECT."])
    }
}
