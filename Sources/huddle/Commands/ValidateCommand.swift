import ArgumentParser
import Foundation
import GraphQL

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Validate a project's GraphQL operations against the schema.",
        discussion: """
            Reads files, folders and glob patterns ('-' for standard input): \
            .graphql and .gql files, and the documents in gql and graphql \
            tagged templates (and graphql(`…`) calls, and templates after \
            /* GraphQL */) in .js, .jsx, .ts, .tsx and .vue files. Folders are \
            searched, leaving out hidden folders and node_modules. All the \
            documents are validated together, as one: a fragment defined in one \
            file serves operations in every other, and operation and fragment \
            names must be unique across the project. Each error is reported at \
            its place in its file, templates' lines and columns mapped back to \
            the host file.

            The schema is Huddle's own, SDL files (--schema, repeatable; those \
            files are left out of the documents), or a live endpoint's \
            introspection (--schema URL, with --header for its credentials).

            Prints FILE:LINE:COLUMN: MESSAGE for each error, and FILE:LINE:COLUMN: \
            warning: MESSAGE for each use of something deprecated, then a summary \
            line; --format json prints {"errors":[{"message","rule","severity",\
            "locations":[{"file","line","column"}]}],"warnings":[…],"files",\
            "operations","fragments"} instead (rule: graphql-js's name of the \
            validation rule, SyntaxError or MaxErrors); github, GitHub Actions' \
            ::error and ::warning annotations; junit, JUnit XML (a test case a \
            file); sarif, SARIF 2.1.0 for code scanning. Exits 0 when every \
            document is valid (warnings too, unless --fail-on-warnings), 1 when \
            not (a syntax error is an error), 2 for usage, I/O or schema problems.
            """
    )

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text
        case json
    }

    enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
        case text
        case json
        case github
        case junit
        case sarif
    }

    @OptionGroup var schemaOptions: SchemaOptions

    @Option(
        help: """
            text: FILE:LINE:COLUMN: MESSAGE lines and a summary; json: one JSON object; github: GitHub Actions \
            annotations; junit: JUnit XML; sarif: SARIF 2.1.0.
            """)
    var format: ReportFormat = .text

    @Flag(help: "Exit 1 for warnings (uses of deprecated fields, arguments, input fields and enum values) too.")
    var failOnWarnings = false

    @Option(parsing: .unconditional, help: "Stop validating after this many errors, as graphql-js's validate() does.")
    var maxErrors = 100

    @ArgumentParser.Argument(help: "Files, folders and glob patterns; '-' for standard input.")
    var paths: [String]

    func validate() throws {
        if maxErrors < 1 { throw ValidationError("--max-errors must be at least 1.") }
    }

    func run() throws {
        let (schema, project) = try Self.schemaAndProject(schemaOptions, paths, command: "validate")
        let report = project.validate(schema: schema, maxErrors: maxErrors)
        let reports = ValidateReports(report: report, files: project.fileCount, fileNames: project.fileNames)
        let output =
            switch format {
            case .text: reports.text
            case .json: reports.json
            case .github: reports.github
            case .junit: reports.junit
            case .sarif: reports.sarif
            }
        print(output, terminator: "")
        if !report.errors.isEmpty || (failOnWarnings && !report.warnings.isEmpty) { throw ExitCode(1) }
    }

    /// The schema `options` name and the project's documents, or the
    /// command's exit with the reason.
    static func schemaAndProject(_ options: SchemaOptions, _ paths: [String], command: String) throws -> (
        GraphQLSchema, ProjectDocuments
    ) {
        do {
            return (try options.schema(), try readProject(paths, leavingOut: options.files))
        } catch let failure as CommandFailure {
            throw failure.report(command: command)
        }
    }

    /// The documents of `paths` ('-' for standard input), without the
    /// schema's own files when they sit among them.
    static func readProject(_ paths: [String], leavingOut schemaFiles: [String]) throws(CommandFailure) -> ProjectDocuments {
        let named = paths.filter { $0 != "-" }
        var files: [String] = []
        if !named.isEmpty {
            do {
                files = try DocumentFiles.collect(named, extensions: DocumentFiles.projectExtensions)
            } catch {
                throw .usage("\(error)")
            }
            let left = Set(schemaFiles.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
            files.removeAll { left.contains(URL(fileURLWithPath: $0).standardizedFileURL.path) }
            if files.isEmpty {
                throw .usage("no .graphql, .gql, .js, .jsx, .ts, .tsx or .vue files in \(named.joined(separator: " "))")
            }
        }
        if paths.contains("-") { files.insert("-", at: 0) }
        do {
            return try ProjectDocuments.read(files: files)
        } catch {
            throw .usage("\(error)")
        }
    }

}
