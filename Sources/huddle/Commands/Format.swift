import ArgumentParser
import Foundation
import GraphQL

struct Format: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a GraphQL document in canonical form.",
        discussion: """
            Reads FILE, or standard input when FILE is absent or '-', and prints it \
            as graphql-js's print() would. On a syntax error prints \
            FILE:LINE:COLUMN: MESSAGE on standard error and exits 1.
            """
    )

    @ArgumentParser.Argument(help: "The document to format; '-' or nothing for standard input.")
    var file: String?

    func run() throws {
        let (name, data) = try readInput()
        let source = Source(body: String(decoding: data, as: UTF8.self), name: name)
        do throws(GraphQLError) {
            let document = try GraphQL.parse(source, options: .trusted)
            FileHandle.standardOutput.write(Data((Printer.print(document) + "\n").utf8))
        } catch {
            let location = error.locations.first.map { "\($0.line):\($0.column)" } ?? "1:1"
            FileHandle.standardError.write(Data("\(name):\(location): \(error.message)\n".utf8))
            throw ExitCode(1)
        }
    }

    private func readInput() throws -> (String, Data) {
        guard let file, file != "-" else {
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
