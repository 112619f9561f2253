// libFuzzer entry point for the GraphQL engine, compiled together with
// Sources/GraphQL by scripts/fuzz/run: the input is a document, parsed,
// printed, validated against a fixed schema and, when valid, executed over
// fixed JSON data (with default resolvers, as `huddle execute` runs it).
//
// Beyond "no crash, no sanitizer report", it checks that printing is a fixed
// point (a printed document parses, and prints the same again) and that
// every response is JSON that reads back.
import Dispatch

private let schemaSDL = """
    type Query {
      me: User
      users(first: Int = 10, filter: Filter): [User!]!
      node(id: ID!): Node
      search(text: String = "x"): [Result]
      echo(value: In, list: [[Int!]], color: Color = RED): String
      numbers: [[Int]]
      color: Color!
      when: DateTime
    }
    type Mutation { rename(name: String!): User }
    "Things with ids."
    interface Node { id: ID! }
    type User implements Node {
      id: ID!
      name: String!
      friends(first: Int): [User!]
      score: Float
      tags: [String]
      best: Result
      old: String @deprecated(reason: "gone")
    }
    type Post implements Node { id: ID! title: String author: User! }
    union Result = User | Post
    enum Color { RED GREEN @deprecated }
    input Filter { text: String limit: Int = 5 nested: Filter colors: [Color!] = [RED] }
    input In @oneOf { a: Int b: String }
    scalar DateTime @specifiedBy(url: "https://www.rfc-editor.org/rfc/rfc3339")
    """

private let dataJSON = """
    {"me": {"id": "1", "name": "Ana", "friends": [{"id": "2", "name": null}, {"id": 3, "name": "Bo", "friends": []}],
            "score": 1.5, "tags": ["a", null, 3], "best": {"__typename": "Post", "id": "p", "title": "T", "author": null}},
     "users": [{"id": "1", "name": "Ana"}, null, {"id": 4.5, "name": true}],
     "node": {"__typename": "Post", "id": "p1", "title": "Hi", "author": {"id": "9", "name": "Cy"}},
     "search": [{"__typename": "User", "id": "u", "name": "U"}, {"__typename": "Nope"}, {"__typename": "Color"}, null],
     "echo": "e", "numbers": [[1, null], [2147483648], "x"], "color": "BLUE", "when": "2026-11-22T10:00:00Z",
     "rename": {"id": "1", "name": "X"}}
    """

private let schema = try! buildSchema(schemaSDL)
private let executable = ExecutableSchema.readingFieldsByName(schema)
private let root: GraphQLValue = try! JSONReader().read(dataJSON)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGraphQLDocument(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let source = Source(body: text)
    guard let document = try? parse(source) else { return 0 }

    let printed = Printer.print(document)
    let reparsed: Document
    do {
        reparsed = try parse(Source(body: printed))
    } catch {
        fatalError("the printed document does not parse: \(error)\n--- input\n\(text)\n--- printed\n\(printed)")
    }
    let printedAgain = Printer.print(reparsed)
    if printedAgain != printed {
        fatalError("printing is not a fixed point\n--- printed\n\(printed)\n--- printed again\n\(printedAgain)")
    }

    guard validate(schema: schema, document: document, source: source).isEmpty else { return 0 }
    let response = run(document, source)
    if (try? JSONReader().read(response)) == nil {
        fatalError("the response is not JSON: \(response)")
    }
    return 0
}

/// Executes `document` over the fixed data and returns its response JSON.
private func run(_ document: Document, _ source: Source) -> String {
    final class Box: @unchecked Sendable { var json = "" }
    let box = Box()
    let done = DispatchSemaphore(value: 0)
    let rootValue = root
    Task {
        let result = await execute(schema: executable, document: document, source: source, rootValue: .value(rootValue))
        box.json = result.json()
        done.signal()
    }
    done.wait()
    return box.json
}
