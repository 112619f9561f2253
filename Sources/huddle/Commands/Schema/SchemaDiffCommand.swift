import ArgumentParser
import Foundation
import GraphQL

struct SchemaDiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Every change from one schema to another, breaking, dangerous or safe.",
        discussion: """
            OLD and NEW are each an SDL file, a folder of SDL files, an http(s) \
            URL (introspected; --header for credentials) or 'builtin' (Huddle's \
            own). Breaking and dangerous changes are graphql-js 16's \
            findBreakingChanges and findDangerousChanges, in their words and \
            order; safe ones follow, with graphql-js 17's change types. Prints a \
            line per change and a summary, or --format json. Exits 1 when a \
            change is breaking, 0 otherwise, 2 for usage, I/O or schema problems.
            """
    )

    @OptionGroup var options: SchemaOptions

    @Option(help: "text: a line per change and a summary; json: one JSON object.")
    var format: ValidateCommand.OutputFormat = .text

    @ArgumentParser.Argument(help: "The schema as it is.")
    var old: String

    @ArgumentParser.Argument(help: "The schema as it would be.")
    var new: String

    func run() throws {
        let changes: [SchemaChange]
        do {
            changes = findSchemaChanges(old: try options.schema(named: old), new: try options.schema(named: new))
        } catch let failure as CommandFailure {
            throw failure.report(command: "schema diff")
        }
        print(Self.render(changes, format: format), terminator: "")
        if changes.contains(where: { $0.severity == .breaking }) { throw ExitCode(1) }
    }

    /// `{"severity","type","coordinate","description"}`.
    static func json(_ change: SchemaChange) -> GraphQLValue {
        .object([
            .init("severity", .string(change.severity.rawValue)), .init("type", .string(change.type)),
            .init("coordinate", .string(change.coordinate)), .init("description", .string(change.description)),
        ])
    }

    /// `breaking  FIELD_REMOVED  Query.b was removed.` lines and
    /// `3 changes: 1 breaking, 1 dangerous, 1 safe`, or the JSON object.
    static func render(_ changes: [SchemaChange], format: ValidateCommand.OutputFormat) -> String {
        let counts = SchemaChange.Severity.allCases.map { severity in (severity, changes.filter { $0.severity == severity }.count) }
        switch format {
        case .json:
            var writer = JSONWriter(capacity: 1024)
            var members: [GraphQLValue.Member] = [
                .init(
                    "changes",
                    .list(
                        changes.map(json)))
            ]
            members += counts.map { .init($0.0.rawValue, .int($0.1)) }
            writer.value(.object(members))
            return writer.text + "\n"
        case .text:
            if changes.isEmpty { return "no changes\n" }
            return lines(changes) + counted(changes.count, "change") + ": "
                + counts.map { "\($0.1) \($0.0.rawValue)" }.joined(separator: ", ") + "\n"
        }
    }

    /// A line per change, its severity and type in columns.
    static func lines(_ changes: [SchemaChange]) -> String {
        let width = changes.map(\.type.count).max() ?? 0
        return changes.map { change in
            change.severity.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0) + " "
                + change.type.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + change.description + "\n"
        }.joined()
    }
}
