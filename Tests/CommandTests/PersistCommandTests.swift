import Foundation
import HuddleRuntime
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// `huddle persist`, run as a process: a manifest of trusted documents
/// from a front-end tree.
@Suite struct PersistCommandTests {
    let scratch: ScratchDirectory
    let schemaPath: String

    init() throws {
        scratch = try ScratchDirectory("huddle-persist")
        schemaPath = try scratch.file("schema.graphql", "type Query { me: User } type User { id: ID! name: String friends: [User!]! }")
    }

    func tree() throws -> URL {
        let root = scratch.url.appendingPathComponent("web")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("src"), withIntermediateDirectories: true)
        try Data("fragment Bits on User {\n  id\n  ...Name\n}\nfragment Name on User {\n  name\n}\nfragment Unused on User { id }\n".utf8)
            .write(to: root.appendingPathComponent("src/fragments.graphql"))
        try Data(
            """
            const ME = gql`
              query Me { me { ...Bits friends { ...Name } } }
              ${BITS}
            `;
            const FRIENDS = graphql(`query Friends { me { friends { id } } }`);
            """.utf8
        ).write(to: root.appendingPathComponent("src/App.tsx"))
        return root
    }

    @Test func writesEachOperationWithTheFragmentsItUsesUnderItsHash() throws {
        let root = try tree()
        // Unused is not used: the project is invalid until it is.
        let refused = try HuddleCommand.run(["persist", "--schema", schemaPath, "--out", "manifest.json", "src"], in: root)
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("src/fragments.graphql:8:1: Fragment \"Unused\" is never used."))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("manifest.json").path))

        try Data("fragment Bits on User {\n  id\n  ...Name\n}\nfragment Name on User {\n  name\n}\n".utf8)
            .write(to: root.appendingPathComponent("src/fragments.graphql"))
        let outcome = try HuddleCommand.run(["persist", "--schema", schemaPath, "--out", "manifest.json", "src"], in: root)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput == "wrote 2 documents to manifest.json\n")
        let me =
            "query Me {\n  me {\n    ...Bits\n    friends {\n      ...Name\n    }\n  }\n}\n\nfragment Bits on User {\n  id\n  ...Name\n}\n\nfragment Name on User {\n  name\n}"
        let friends = "query Friends {\n  me {\n    friends {\n      id\n    }\n  }\n}"
        let manifest =
            try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("manifest.json"))) as? [String: String]
        #expect(
            manifest == [
                "sha256:" + Digest.sha256Hex(Array(me.utf8)): me, "sha256:" + Digest.sha256Hex(Array(friends.utf8)): friends,
            ])
        // The same project gives the same manifest, byte for byte.
        let again = try HuddleCommand.run(["persist", "--schema", schemaPath, "--out", "-", "src"], in: root)
        #expect(again.standardOutput == (try String(contentsOf: root.appendingPathComponent("manifest.json"), encoding: .utf8)))
    }
}
