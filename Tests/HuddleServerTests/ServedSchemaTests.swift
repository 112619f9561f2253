import Foundation
import PostgresTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// The SDL the server serves (`GET /graphql/schema.graphql`) is read by
/// tools built on graphql-js 16: graphql-js 16's own `buildSchema` (Debian's
/// node-graphql, unpacked by scripts/graphql-js/fetch.sh) builds it, though
/// the schema uses `@oneOf` and offers `@defer` and `@stream`, which
/// graphql-js 16 does not know.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct ServedSchemaTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func graphqlJS16BuildsTheServedSchema() async throws {
        let fetched = try await ClientProcess.run("bash", [Self.root.appendingPathComponent("scripts/graphql-js/fetch.sh").path])
        try #require(fetched.status == 0, "graphql-js 16 could not be had: \(fetched.errors)")
        let module = fetched.output.trimmingCharacters(in: .whitespacesAndNewlines)
        try await TestServer.with(mounting: everyApp) { server in
            let sdl = try await server.get("/graphql/schema.graphql")
            #expect(sdl.contains("directive @oneOf on INPUT_OBJECT") && sdl.contains("input PushEndpointInput @oneOf"))
            #expect(sdl.contains("directive @defer(") && sdl.contains("directive @stream("))
            let scratch = try ScratchDirectory("served-schema")
            let file = try scratch.file("schema.graphql", sdl)
            let script = """
                const { buildSchema, validate, parse } = require(process.argv[1]);
                const fs = require('fs');
                const schema = buildSchema(fs.readFileSync(process.argv[2], 'utf8'));
                // An operation with @defer validates against it, as a client's tooling would check one.
                const errors = validate(schema, parse('{ me { id ... @defer { username } } }'));
                console.log(Object.keys(schema.getTypeMap()).length > 50 && errors.length === 0 ? 'built' : JSON.stringify(errors));
                """
            let built = try await ClientProcess.run("node", ["-e", script, module, file])
            #expect(built.status == 0, "\(built.errors)")
            #expect(built.output == "built\n", "\(built.output)")
        }
    }
}
