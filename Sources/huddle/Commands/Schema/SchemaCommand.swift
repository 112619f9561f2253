import ArgumentParser
import Foundation
import GraphQL

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print a schema, compare two, or check a project's operations against a new one.",
        subcommands: [PrintSchemaCommand.self, SchemaDiffCommand.self, SchemaCheckCommand.self],
        defaultSubcommand: PrintSchemaCommand.self
    )
}

struct PrintSchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print",
        abstract: "Print the schema as SDL, as graphql-js's printSchema would (the default).",
        discussion: "Exits 2, listing every problem on standard error, when the SDL does not make a valid schema."
    )

    @OptionGroup var options: SchemaOptions

    func run() throws {
        do {
            let schema = try options.schema()
            FileHandle.standardOutput.write(Data((printSchema(schema) + "\n").utf8))
        } catch let failure as CommandFailure {
            throw failure.report(command: "schema")
        }
    }
}
