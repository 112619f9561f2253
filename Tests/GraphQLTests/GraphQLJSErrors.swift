import GraphQL

/// Errors as graphql-js's fixtures hold them: `[{"message", "locations"}]`,
/// as JSON text, so that a comparison shows every difference at once.
func graphQLJSErrorsJSON(_ errors: [GraphQLError]) -> String {
    let values = errors.map { error in
        GraphQLValue.object([
            .init("message", .string(error.message)),
            .init(
                "locations",
                .list(error.locations.map { .object([.init("line", .int($0.line)), .init("column", .int($0.column))]) })),
        ])
    }
    var writer = JSONWriter(capacity: 1024)
    writer.value(.list(values))
    return writer.text
}
