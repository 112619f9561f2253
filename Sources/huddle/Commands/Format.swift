import ArgumentParser
import Foundation
import GraphQL

struct Format: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a GraphQL document in canonical form, or check or rewrite files in place.",
        discussion: """
            Reads FILE, or standard input when FILE is absent or '-', and prints it \
            as graphql-js's print() would, keeping its comments. On a syntax error prints \
            FILE:LINE:COLUMN: MESSAGE on standard error and exits 1.

            With --check or --write, takes any number of files, folders (searched \
            for .graphql and .gql files, and for .js, .jsx, .ts, .tsx and .vue \
            files with embedded documents) and glob patterns: --check names each \
            file not in canonical form, with a unified diff of what formatting \
            would change, and exits 1 if there is one; --write \
            rewrites those files and names them. Documents embedded in tagged \
            templates are only checked, never rewritten: each is compared, \
            without its common indentation and its blank first and last lines, \
            with its canonical form, and named at its place when it differs. A \
            file with a syntax error is reported and left as it is (exit 1). A \
            path that matches nothing exits 2.
            """
    )

    @ArgumentParser.Argument(
        help: "The document to format ('-' or nothing for standard input); with --check or --write, files, folders and globs.")
    var paths: [String] = []

    @Flag(help: "Exit 1, naming them, if some files are not in canonical form; change nothing.")
    var check = false

    @Flag(help: "Rewrite the files not in canonical form, naming them.")
    var write = false

    func validate() throws {
        if check && write { throw ValidationError("--check and --write do not go together.") }
        if !check && !write && paths.count > 1 {
            throw ValidationError("Give --check or --write to format more than one file.")
        }
        if (check || write) && paths.isEmpty { throw ValidationError("--check and --write need files, folders or globs.") }
    }

    func run() throws {
        guard check || write else { return try printOne() }
        let files: [String]
        do {
            files = try DocumentFiles.collect(paths, extensions: DocumentFiles.projectExtensions)
        } catch {
            FileHandle.standardError.write(Data("huddle format: \(error)\n".utf8))
            throw ExitCode(2)
        }
        var failed = false
        var changed = 0
        var embedded = 0
        let hosts = files.filter { EmbeddedDocuments.extensions.contains(URL(fileURLWithPath: $0).pathExtension.lowercased()) }
        for file in hosts {
            let (checked, differing, broken) = try checkEmbedded(in: file)
            embedded += checked
            changed += differing
            failed = failed || differing > 0 || broken
        }
        for file in files where !hosts.contains(file) {
            let text: String
            do {
                text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self)
            } catch {
                FileHandle.standardError.write(Data("huddle format: cannot read \(file): \(error.localizedDescription)\n".utf8))
                throw ExitCode(2)
            }
            guard let canonical = Self.canonical(text, name: file) else {
                failed = true
                continue
            }
            guard canonical != text else { continue }
            changed += 1
            if write {
                do {
                    try Data(canonical.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
                } catch {
                    FileHandle.standardError.write(Data("huddle format: cannot write \(file): \(error.localizedDescription)\n".utf8))
                    throw ExitCode(2)
                }
                print("formatted \(file)")
            } else {
                print("\(file): not in canonical form")
                print(
                    LineDiff(text, canonical).unified(from: file, to: "\(file) (formatted)")
                        ?? "(too long to show what would change)\n", terminator: "")
                failed = true
            }
        }
        let verb = write ? "formatted" : "to format"
        let documents = embedded == 0 ? "" : " (\(counted(embedded, "embedded document")))"
        print("\(counted(files.count, "file"))\(documents), \(changed) \(verb)")
        if failed { throw ExitCode(1) }
    }

    /// Checks the documents embedded in a host file: how many there were,
    /// how many are not in canonical form, and whether one did not parse.
    private func checkEmbedded(in file: String) throws -> (checked: Int, differing: Int, broken: Bool) {
        let documents: [ProjectDocument]
        do {
            documents = try ProjectDocuments.read(files: [file]).documents
        } catch {
            FileHandle.standardError.write(Data("huddle format: \(error)\n".utf8))
            throw ExitCode(2)
        }
        var differing = 0
        var broken = false
        for document in documents {
            let body = EmbeddedLayout(document.text)
            guard let canonical = Self.canonical(document.text, name: file, place: document) else {
                broken = true
                continue
            }
            if !body.matches(canonical, ignoringBlankLines: document.hasSubstitutions) {
                differing += 1
                let place = document.place(of: SourceLocation(line: body.firstLine, column: body.indentation + 1))
                print("\(place): embedded document not in canonical form\(write ? " (not rewritten)" : "")")
            }
        }
        return (documents.count, differing, broken)
    }

    /// The document as print() writes it, with its comments kept and a final newline; nil (and the
    /// error on standard error) when it does not parse.
    /// `place`, for an embedded document, maps the error back to its host file.
    static func canonical(_ text: String, name: String, place: ProjectDocument? = nil) -> String? {
        do throws(GraphQLError) {
            return try printKeepingComments(Source(body: text, name: name))
        } catch {
            let first = error.locations.first ?? SourceLocation(line: 1, column: 1)
            let spot = place?.place(of: first).description ?? "\(name):\(first)"
            FileHandle.standardError.write(Data("\(spot): \(error.message)\n".utf8))
            return nil
        }
    }

    private func printOne() throws {
        let (name, data) = try readInput()
        guard let canonical = Self.canonical(String(decoding: data, as: UTF8.self), name: name) else { throw ExitCode(1) }
        FileHandle.standardOutput.write(Data(canonical.utf8))
    }

    private func readInput() throws -> (String, Data) {
        guard let file = paths.first, file != "-" else {
            return ("<stdin>", FileHandle.standardInput.readDataToEndOfFile())
        }
        do {
            return (file, try Data(contentsOf: URL(fileURLWithPath: file)))
        } catch {
            FileHandle.standardError.write(Data("huddle format: cannot read \(file): \(error.localizedDescription)\n".utf8))
            throw ExitCode(2)
        }
    }
}
