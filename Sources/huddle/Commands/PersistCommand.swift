import ArgumentParser
import Formats
import Foundation
import GraphQL
import HuddleRuntime

struct PersistCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "persist",
        abstract: "Write a manifest of a project's operations as trusted documents.",
        discussion: """
            Reads the project as 'huddle validate' does and validates it; with \
            errors, prints them and exits 1, writing nothing. Otherwise writes \
            OUT: a JSON object of "sha256:<hex>" ids and documents, each \
            operation printed in canonical form followed by the fragments it \
            uses, and its id the SHA-256 of that text: the persisted documents \
            format of the GraphQL-over-HTTP proposal and of GraphQL Code \
            Generator's client preset. Serve it with --trusted-documents; clients \
            send {"documentId": "sha256:…"}. Exits 2 for usage, I/O or schema \
            problems.
            """
    )

    @OptionGroup var schemaOptions: SchemaOptions

    @Option(help: ArgumentHelp("Where to write the manifest ('-' for standard output).", valueName: "manifest.json"))
    var out: String

    @ArgumentParser.Argument(help: "The project's files, folders and glob patterns.")
    var paths: [String]

    func run() throws {
        let (schema, project) = try ValidateCommand.schemaAndProject(schemaOptions, paths, command: "persist")
        let report = project.validate(schema: schema, maxErrors: 100)
        guard report.errors.isEmpty else {
            FileHandle.standardError.write(Data(report.errors.map { $0.compilerText() }.joined().utf8))
            FileHandle.standardError.write(Data("huddle persist: \(report.errors.count) errors; nothing written\n".utf8))
            throw ExitCode(1)
        }
        let documents = Self.trustedDocuments(report.definitions)
        var manifest = "{\n"
        manifest += documents.map { id, text in "  \(JSONText.quoted(id)): \(JSONText.quoted(text))" }.joined(separator: ",\n")
        manifest += documents.isEmpty ? "}\n" : "\n}\n"
        if out == "-" {
            FileHandle.standardOutput.write(Data(manifest.utf8))
            return
        }
        do {
            try Data(manifest.utf8).write(to: URL(fileURLWithPath: out), options: .atomic)
        } catch {
            FileHandle.standardError.write(Data("huddle persist: cannot write \(out): \(error.localizedDescription)\n".utf8))
            throw ExitCode(2)
        }
        print("wrote \(counted(documents.count, "document")) to \(out)")
    }

    /// Each operation with the fragments it uses, at any depth, in the
    /// order first met: its id and its text, sorted by id.
    static func trustedDocuments(_ definitions: [Definition]) -> [(id: String, text: String)] {
        var fragments: [String: FragmentDefinition] = [:]
        for case .fragment(let fragment) in definitions { fragments[fragment.name.value] = fragment }
        var documents: [String: String] = [:]
        for case .operation(let operation) in definitions {
            var used: [String] = []
            var pending = [operation.selectionSet]
            while let selectionSet = pending.popLast() {
                var nested: [SelectionSet] = []
                for selection in selectionSet.selections {
                    switch selection {
                    case .field(let field): if let inner = field.selectionSet { nested.append(inner) }
                    case .inlineFragment(let inline): nested.append(inline.selectionSet)
                    case .fragmentSpread(let spread):
                        let name = spread.name.value
                        guard !used.contains(name), let fragment = fragments[name] else { continue }
                        used.append(name)
                        nested.append(fragment.selectionSet)
                    }
                }
                // Depth first, in the order written.
                pending += nested.reversed()
            }
            let document = Document(definitions: [.operation(operation)] + used.compactMap { fragments[$0].map(Definition.fragment) })
            let text = Printer.print(document)
            documents["sha256:" + Digest.sha256Hex(Array(text.utf8))] = text
        }
        return documents.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
