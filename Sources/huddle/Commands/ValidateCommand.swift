import ArgumentParser
import Foundation
import GraphQL

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Validate a GraphQL document against the schema.",
        discussion: """
            Prints {"errors":[...]} on standard output, with graphql-js's messages and \
            locations (an empty list when the document is valid). Exits 0 when valid, \
            1 when not (a syntax error counts as one error), 2 for usage, I/O or schema errors.
            """
    )

    @OptionGroup var schemaOptions: SchemaOptions

    @ArgumentParser.Argument(help: "The document to validate; '-' for standard input.")
    var document: String

    func run() throws {
        let schema: GraphQLSchema
        let source: Source
        do {
            schema = try schemaOptions.schema()
            source = try readDocument()
        } catch let failure as CommandFailure {
            throw failure.report(command: "validate")
        }
        var errors: [GraphQLError]
        do throws(GraphQLError) {
            let parsed = try GraphQL.parse(source)
            errors = GraphQL.validate(schema: schema, document: parsed, source: source)
        } catch {
            errors = [error]
        }
        FileHandle.standardOutput.write(Data((errorsJSON(errors) + "\n").utf8))
        if !errors.isEmpty { throw ExitCode(1) }
    }

    private func readDocument() throws -> Source {
        if document == "-" {
            return Source(body: String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self), name: "<stdin>")
        }
        guard let data = FileManager.default.contents(atPath: document) else {
            throw CommandFailure.usage("cannot read \(document)")
        }
        return Source(body: String(decoding: data, as: UTF8.self), name: document)
    }

    /// `{"errors":[{"message":"...","locations":[{"line":1,"column":2}]}]}`
    private func errorsJSON(_ errors: [GraphQLError]) -> String {
        let items = errors.map { error in
            var item = "{\"message\":" + jsonString(error.message)
            if !error.locations.isEmpty {
                item +=
                    ",\"locations\":["
                    + error.locations.map { "{\"line\":\($0.line),\"column\":\($0.column)}" }
                    .joined(separator: ",") + "]"
            }
            return item + "}"
        }
        return "{\"errors\":[" + items.joined(separator: ",") + "]}"
    }

    private func jsonString(_ text: String) -> String {
        var writer = JSONWriter(capacity: text.utf8.count + 2)
        writer.string(text)
        return writer.text
    }
}
