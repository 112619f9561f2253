import ArgumentParser
import Foundation
import GraphQL

struct ExecuteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "execute",
        abstract: "Execute a GraphQL document over JSON data and print the response.",
        discussion: """
            Each field resolves to the member of its name in its parent's JSON, and \
            an interface or union takes its object type from "__typename": graphql-js's \
            default resolvers. The response is graphql-js 16's for \
            graphql({schema, source, rootValue, variableValues, operationName}). \
            With --incremental, @defer and @stream deliver in parts, as graphql-js \
            17's experimentalExecuteIncrementally does: one JSON line for the \
            initial result (with pending and hasNext), then one for each \
            subsequent result (incremental, completed, hasNext), the last with \
            hasNext false; a document with nothing deferred prints its one result. \
            SDL that does not declare @defer and @stream gets graphql-js 17's \
            definitions of them. \
            Exits 0 with no errors, 1 with errors (in any part), 2 for usage, I/O \
            or schema errors.
            """
    )

    @OptionGroup var schemaOptions: SchemaOptions

    @Option(help: "A JSON file with the root value.")
    var data: String?

    @Option(help: "A JSON file with the variables object.")
    var variables: String?

    @Option(help: "The operation to run, when the document has several.")
    var operation: String?

    @Flag(help: "Deliver @defer and @stream in parts: a JSON line for each result.")
    var incremental = false

    @ArgumentParser.Argument(help: "The document to execute; '-' for standard input.")
    var document: String

    func run() async throws {
        let schema: GraphQLSchema
        let source: Source
        let rootValue: GraphQLValue
        let variableMembers: [GraphQLValue.Member]
        do {
            schema = try schemaOptions.schema(withIncrementalDelivery: incremental)
            source = try readSource(document)
            rootValue = try data.map(readJSON) ?? .object([])
            guard case .object(let members) = try variables.map(readJSON) ?? .object([]) else {
                throw CommandFailure.usage("the variables must be a JSON object")
            }
            variableMembers = members
        } catch let failure as CommandFailure {
            throw failure.report(command: "execute")
        }
        let result: ExecutionResult
        var subsequent: IncrementalExecution?
        do throws(GraphQLError) {
            let parsed = try GraphQL.parse(source)
            let errors = GraphQL.validate(schema: schema, document: parsed, source: source)
            if !errors.isEmpty {
                result = ExecutionResult(data: nil, errors: errors)
            } else if incremental {
                switch await GraphQL.executeIncrementally(
                    schema: .readingFieldsByName(schema), document: parsed, source: source,
                    operationName: operation, variables: variableMembers, rootValue: .value(rootValue),
                    limits: .unlimited)
                {
                case .complete(let complete): result = complete
                case .incremental(let initial, let execution): (result, subsequent) = (initial, execution)
                }
            } else {
                result = await GraphQL.execute(
                    schema: .readingFieldsByName(schema), document: parsed, source: source,
                    operationName: operation, variables: variableMembers, rootValue: .value(rootValue),
                    limits: .unlimited
                )
            }
        } catch {
            result = ExecutionResult(data: nil, errors: [error])
        }
        FileHandle.standardOutput.write(Data((result.json() + "\n").utf8))
        var failed = !result.errors.isEmpty
        while let part = await subsequent?.next() {
            FileHandle.standardOutput.write(Data((part.json() + "\n").utf8))
            failed =
                failed || part.incremental.contains { !$0.errors.isEmpty } || part.completed.contains { !($0.errors ?? []).isEmpty }
        }
        if failed { throw ExitCode(1) }
    }

    private func readSource(_ path: String) throws -> Source {
        if path == "-" {
            return Source(body: String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self), name: "<stdin>")
        }
        guard let contents = FileManager.default.contents(atPath: path) else { throw CommandFailure.usage("cannot read \(path)") }
        return Source(body: String(decoding: contents, as: UTF8.self), name: path)
    }

    private func readJSON(_ path: String) throws -> GraphQLValue {
        guard let contents = FileManager.default.contents(atPath: path) else { throw CommandFailure.usage("cannot read \(path)") }
        do {
            return try JSONReader().read(String(decoding: contents, as: UTF8.self))
        } catch {
            throw CommandFailure.usage("\(path) is not JSON: \(error)")
        }
    }
}
