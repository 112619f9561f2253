import Foundation
import ServerTestSupport
import TestSupport
import Testing

/// What the Prolific tests share: making projects, writing, voting, and
/// ending a round now instead of at its `endsAt`.
enum ProlificFixtures {
    static let create = """
        mutation($input: CreateProjectInput!) { createProject(input: $input) { id title currentRound { id number endsAt } } }
        """
    static let submit = """
        mutation($round: ID!, $text: String!, $ending: Boolean! = false) {
          submitSnippet(roundId: $round, text: $text, isEnding: $ending) { id }
        }
        """
    static let vote = "mutation($id: ID!) { vote(snippetId: $id) { id voteCount score viewerVoted } }"
    static let unvote = "mutation($id: ID!) { unvote(snippetId: $id) { id voteCount score viewerVoted } }"

    /// Creates a project; returns its id and its open round's id.
    static func project(
        _ server: TestServer, token: String, title: String = "A story", seed: String = "It was a dark and quiet night.",
        extra: [String: any Sendable] = [:]
    ) async throws -> (id: String, round: String) {
        let input = (["title": title, "seed": seed] as [String: any Sendable]).merging(extra) { $1 }
        let reply = try await server.graphql(create, ["input": input], token: token)
        let id = try #require(reply["data"]["createProject"]["id"].string, "\(reply)")
        return (id, reply["data"]["createProject"]["currentRound"]["id"].string!)
    }

    /// Submits a snippet; returns its id.
    static func snippet(_ server: TestServer, token: String, round: String, text: String, ending: Bool = false) async throws
        -> String
    {
        let reply = try await server.graphql(submit, ["round": round, "text": text, "ending": ending], token: token)
        return try #require(reply["data"]["submitSnippet"]["id"].string, "\(reply)")
    }

    static func castVote(_ server: TestServer, token: String, snippet: String) async throws {
        let reply = try await server.graphql(vote, ["id": snippet], token: token)
        #expect(reply["errors"].isNull, "\(reply)")
    }

    /// The row id inside a global id.
    static func rowID(_ globalID: String) -> Int64 {
        Int64(ServerTestSupport.rowID(globalID))!
    }

    /// Makes rounds due now (their `endsAt` and their jobs) and wakes the
    /// schedulers as a NOTIFY from any process would; with `wait`, returns
    /// once each has ended or been extended.
    static func endNow(_ rounds: [String], server: TestServer, wait: Bool = true) async throws {
        let ids = rounds.map(rowID)
        let before = try await server.sql("SELECT coalesce(sum(extensions), 0)::int FROM rounds WHERE id = ANY($1::bigint[])", [ids])[0]
            .decode(Int.self, at: 0)
        _ = try await server.sql(
            "UPDATE rounds SET ends_at = greatest(started_at + interval '1 millisecond', clock_timestamp()) WHERE id = ANY($1::bigint[])",
            [ids])
        _ = try await server.sql(
            "UPDATE scheduled_jobs SET due_at = clock_timestamp() WHERE kind = 'prolific.round-end' AND subject_id = ANY($1::bigint[])",
            [ids])
        _ = try await server.sql("SELECT pg_notify('huddle_scheduler', '0')")
        guard wait else { return }
        for _ in 0..<400 {
            let rows = try await server.sql(
                """
                SELECT count(*) FILTER (WHERE completed_at IS NULL)::int, coalesce(sum(extensions), 0)::int
                FROM rounds WHERE id = ANY($1::bigint[])
                """, [ids])
            let open = try rows[0].decode(Int.self, at: 0)
            let extensions = try rows[0].decode(Int.self, at: 1)
            if open == 0 || extensions - before >= open { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        Issue.record("rounds \(ids) did not end")
    }

    /// The user's notices of `kind`, oldest first, as (message, subject id).
    static func notices(_ server: TestServer, token: String, kind: String) async throws -> [JSON] {
        let reply = try await server.graphql(
            "{ notifications(first: 100) { edges { node { kind message subject { id } } } } }", token: token)
        return reply["data"]["notifications"]["edges"].array.map { $0["node"] }.filter { $0["kind"].string == kind }.reversed()
    }
}
