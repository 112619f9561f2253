import ArgumentParser
import Foundation
import GraphQL

struct SchemaCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Which of a project's operations a new schema would break, and where.",
        discussion: """
            Validates the project's documents (files, folders and globs, read as \
            'huddle validate' reads them) against the current schema (--schema: \
            SDL files, a URL, or Huddle's own by default) and against NEW (an SDL \
            file or folder, a URL, or 'builtin'). Each error NEW brings that the \
            current schema does not is printed at its place with the operation or \
            fragment it is in (and, for a fragment, the operations that spread \
            it, which it breaks too), then the schema's breaking and dangerous changes, \
            then a summary; errors already there are counted, not listed. \
            --format json prints one object. Exits 1 when NEW breaks an \
            operation, 0 otherwise, 2 for usage, I/O or schema problems.
            """
    )

    @OptionGroup var options: SchemaOptions

    @Option(help: "The schema as it would be: an SDL file or folder, an http(s) URL, or builtin.")
    var against: String

    @Option(help: "text: lines and a summary; json: one JSON object.")
    var format: ValidateCommand.OutputFormat = .text

    @ArgumentParser.Argument(help: "The project's files, folders and glob patterns.")
    var paths: [String]

    func run() throws {
        let current: GraphQLSchema
        let proposed: GraphQLSchema
        let project: ProjectDocuments
        do {
            current = try options.schema(headersServeAnother: RemoteSchema.isURL(against))
            proposed = try options.schema(named: against)
            project = try ValidateCommand.readProject(paths, leavingOut: options.files)
        } catch let failure as CommandFailure {
            throw failure.report(command: "schema check")
        }
        let before = project.validate(schema: current, maxErrors: .max)
        let after = project.validate(schema: proposed, maxErrors: .max)
        // The same error at the same places is not new, even when its
        // suggestions ("Did you mean …?") changed with the schema.
        func key(_ error: ProjectError) -> [String] {
            let message = error.message.range(of: " Did you mean ").map { String(error.message[..<$0.lowerBound]) } ?? error.message
            return [message] + error.places.map(\.description)
        }
        let known = Set(before.errors.map(key))
        // A broken fragment breaks the operations that spread it, directly or through others.
        let users = FragmentUsers(after.definitions)
        let broken = after.errors.filter { !known.contains(key($0)) }.map { error in
            var error = error
            if let definition = error.definition, definition.hasPrefix("fragment ") {
                error.usedBy = users.operations(using: String(definition.dropFirst("fragment ".count)))
            }
            return error
        }
        let changes = findSchemaChanges(old: current, new: proposed).filter { $0.severity != .safe }
        let definitions = Set(broken.compactMap(\.definition))
        let brokenOperations = Set(definitions.filter { !$0.hasPrefix("fragment ") } + broken.flatMap(\.usedBy))
        let operations = brokenOperations.count
        let fragments = definitions.filter { $0.hasPrefix("fragment ") }.count
        switch format {
        case .text:
            var output = broken.map { $0.compilerText(naming: true) }.joined()
            output += SchemaDiffCommand.lines(changes)
            output += "\(counted(operations, "operation")) and \(counted(fragments, "fragment")) broken"
            output +=
                " (\(counted(project.fileCount, "file")), \(counted(after.operations, "operation")), \(counted(after.fragments, "fragment"))"
            output += before.errors.isEmpty ? ")" : "; \(counted(before.errors.count, "error")) already there, not counted)"
            print(output)
        case .json:
            var writer = JSONWriter(capacity: 1024)
            writer.value(
                .object([
                    .init(
                        "errors",
                        .list(
                            broken.map { $0.json(naming: true) })),
                    .init(
                        "changes",
                        .list(
                            changes.map(SchemaDiffCommand.json))),
                    .init("brokenOperations", .int(operations)), .init("brokenFragments", .int(fragments)),
                    .init("brokenOperationNames", .list(brokenOperations.sorted().map { .string($0) })),
                    .init("errorsAlreadyThere", .int(before.errors.count)),
                ]))
            print(writer.text)
        }
        if !broken.isEmpty { throw ExitCode(1) }
    }
}
