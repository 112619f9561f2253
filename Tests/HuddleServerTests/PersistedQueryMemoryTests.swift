import Foundation
import GraphQL
import HuddleRuntime
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

@testable import GraphQLTransport

/// Automatic persisted queries: anyone may register a document, so what the
/// process keeps of them is bounded in bytes, and kept without comments or
/// white space; one store for the process, so a hash registered through one
/// worker is found through the others.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct PersistedQueryMemoryTests {
    static func register(_ server: TestServer, _ query: String) async throws -> JSON {
        let hash = Digest.sha256Hex(Array(query.utf8))
        let body = try JSONSerialization.data(withJSONObject: [
            "query": query, "extensions": ["persistedQuery": ["version": 1, "sha256Hash": hash]],
        ])
        return try await server.post(body: String(decoding: body, as: UTF8.self))
    }

    /// The attack of issue 41: documents of a ~1 MB comment and a one-line
    /// query grew a server by about 600 KB each, never given back.
    @Test func documentsOfAMegabyteOfCommentCostTheirQueryOnly() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.launch(databaseURL: url, workers: 2)
            defer { server.stop() }
            let padding = String(repeating: "# padding padding padding padding padding padding padding padding padding\n", count: 12_000)
            _ = try await server.graphql("{ __typename }")
            let before = server.residentBytes
            let count = 150
            for index in 0..<count {
                let reply = try await Self.register(server, padding + "query Q\(index) { __typename }")
                #expect(reply["data"]["__typename"].string == "Query", "\(reply)")
            }
            let grown = server.residentBytes - before
            #expect(try await server.metric("huddle_persisted_queries") == count)
            let kept = try await server.metric("huddle_persisted_query_bytes")
            #expect(kept > 0 && kept <= count * (32 + PersistedQueries.overheadBytes), "\(kept)")
            // 150 documents of 900 KB each were sent; what stays is far less than one of them per document.
            #expect(grown < 64 << 20, "resident memory grew by \(grown >> 20) MiB")

            // Found by hash on fresh connections, whichever worker takes them.
            for index in 0..<10 {
                let hash = Digest.sha256Hex(Array((padding + "query Q\(index) { __typename }").utf8))
                let found = try curl([
                    "http://127.0.0.1:\(server.port)/graphql", "-H", "Content-Type: application/json",
                    "--data", #"{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"\#(hash)"}}}"#,
                ]).output
                #expect(found == #"{"data":{"__typename":"Query"}}"#, "\(found)")
            }
        }
    }

    @Test func theStoreKeepsToItsBytesEvictingTheOldest() {
        let size = 10 + PersistedQueries.overheadBytes
        let store = PersistedQueries(capacity: 100, maxBytes: 3 * size)
        for index in 0..<3 { store.store("{ abcde\(index) }", hash: "h\(index)") }
        #expect(store.usage == (3, 3 * size))
        #expect(store.query(forHash: "h0") == "{ abcde0 }")
        store.store("{ abcde3 }", hash: "h3")
        #expect(store.usage == (3, 3 * size))
        #expect(store.query(forHash: "h0") == nil)
        #expect(store.query(forHash: "h3") == "{ abcde3 }")
        // Larger than the whole budget: not kept, nothing evicted for it.
        store.store(String(repeating: "x", count: 3 * size), hash: "big")
        #expect(store.query(forHash: "big") == nil)
        #expect(store.usage.count == 3)
    }
}
