import Foundation
import HuddleCore
import HuddleRuntime
import HuddleServer
import PostgresTestSupport
import Prolific
import ServerTestSupport
import TestSupport
import Testing

/// "Use user analytics to get an overview of activity on projects &
/// snippets": the views of a project's page and of its snippets counted
/// without a write per read (each reader once until the next write), shown
/// by day in the owner's time zone beside votes and snippets, to the owner
/// only, and warming the project in explore.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct ActivityTests {
    static let page = "query($id: ID!) { project(id: $id) { title } }"
    static let tap = "query($id: ID!) { snippet(id: $id) { text } }"
    static let activity = """
        query($id: ID!, $days: Int!) { project(id: $id) { activity(days: $days) { day views snippetViews votes snippets } } }
        """
    static let writer = "{ me { writerActivity(days: 3) { day projectViews snippetViews votesReceived snippetsWritten } } }"

    /// Writes only when 10 distinct reads are held and one more comes (or at
    /// the end): what a test sees written it knows exactly.
    static func heldUntilTen(_ configuration: inout HuddleServer.Configuration) {
        configuration.appSettings = try! AppSettings(
            AppSettings.declared(mounting: [Prolific.self]), environment: [:],
            assignments: ["tally-write-seconds=3600", "tally-held-reads=10"])
    }

    @Test func theOwnerSeesViewsVotesAndSnippetsByDayInTheirTimeZone() async throws {
        try await TestServer.with(mounting: [Prolific.self], Self.heldUntilTen) { server in
            let users = try await server.makeUsers(10, prefix: "viewer")
            let (ana, bob, cara) = (users[0], users[1], users[2])
            let zone = try await server.graphql(
                "mutation { updateProfile(input: { timeZone: \"Pacific/Kiritimati\" }) { timeZone } }", token: ana.token)
            #expect(zone["data"]["updateProfile"]["timeZone"].string == "Pacific/Kiritimati", "\(zone)")
            let story = try await ProlificFixtures.project(server, token: ana.token, title: "Counted")
            let snippet = try await ProlificFixtures.snippet(
                server, token: cara.token, round: story.round, text: "Then the lights went out.")
            try await ProlificFixtures.castVote(server, token: bob.token, snippet: snippet)
            let heatBefore = try await server.sql("SELECT heat FROM projects WHERE id = $1", [rowID(story.id)])[0].decode(
                Double.self, at: 0)

            // Bob three times and Cara once; someone signed out twice from one
            // address; Ana, the owner, not at all. Bob opens Cara's snippet
            // twice, Cara her own (not a view).
            for _ in 0..<3 { _ = try await server.graphql(Self.page, ["id": story.id], token: bob.token) }
            _ = try await server.graphql(Self.page, ["id": story.id], token: cara.token)
            for _ in 0..<2 { _ = try await server.graphql(Self.page, ["id": story.id]) }
            _ = try await server.graphql(Self.page, ["id": story.id], token: ana.token)
            for _ in 0..<2 { _ = try await server.graphql(Self.tap, ["id": snippet], token: bob.token) }
            _ = try await server.graphql(Self.tap, ["id": snippet], token: cara.token)
            // Four reads held; seven more make eleven, and the eleventh hands the first ten over.
            let other = try await ProlificFixtures.project(server, token: ana.token, title: "Filler")
            for reader in users[3...9] { _ = try await server.graphql(Self.page, ["id": other.id], token: reader.token) }
            try await until { try await server.sql("SELECT count(*) FROM project_view_hours")[0].decode(Int.self, at: 0) == 2 }

            let seen = try await server.graphql(Self.activity, ["id": story.id, "days": 7], token: ana.token)
            let days = seen["data"]["project"]["activity"].array
            #expect(days.count == 7, "\(seen)")
            let today = try await server.sql("SELECT to_char(now() AT TIME ZONE 'Pacific/Kiritimati', 'YYYY-MM-DD')")[0]
                .decode(String.self, at: 0)
            #expect(days.last?["day"].string == today, "\(seen)")
            #expect(days.last?["views"].int == 3 && days.last?["snippetViews"].int == 1, "\(seen)")
            #expect(days.last?["votes"].int == 1 && days.last?["snippets"].int == 1, "\(seen)")
            #expect(days.dropLast().allSatisfy { $0["views"].int == 0 && $0["votes"].int == 0 }, "\(seen)")
            // Only the owner.
            let bobs = try await server.graphql(Self.activity, ["id": story.id, "days": 7], token: bob.token)
            #expect(bobs["data"]["project"]["activity"].isNull && bobs["errors"].isNull, "\(bobs)")

            // The writers' own: Ana's projects were opened 3 + 6 times (the
            // filler's seventh is still held); Cara's snippet once, and voted for.
            let anas = try await server.graphql(Self.writer, token: ana.token)
            #expect(anas["data"]["me"]["writerActivity"].array.last?["projectViews"].int == 9, "\(anas)")
            let caras = try await server.graphql(Self.writer, token: cara.token)
            let caraToday = caras["data"]["me"]["writerActivity"].array.last
            #expect(caraToday?["snippetViews"].int == 1 && caraToday?["votesReceived"].int == 1, "\(caras)")
            #expect(caraToday?["snippetsWritten"].int == 1 && caraToday?["projectViews"].int == 0, "\(caras)")
            let others = try await server.graphql(
                "query($id: ID!) { user(id: $id) { writerActivity { day } } }", ["id": cara.id], token: bob.token)
            #expect(others["data"]["user"]["writerActivity"].isNull && others["errors"].isNull, "\(others)")

            // The two signed-in readers warmed it; the database took the views whole.
            let heatAfter = try await server.sql("SELECT heat FROM projects WHERE id = $1", [rowID(story.id)])[0].decode(Double.self, at: 0)
            #expect(heatAfter > heatBefore)
            await #expect(throws: (any Error).self) {
                _ = try await server.sql(
                    "INSERT INTO project_view_hours (project_id, hour, views) VALUES ($1, now(), 1)", [rowID(story.id)])
            }
        }
    }

    @Test func daysAreOneToNinety() async throws {
        try await TestServer.with(mounting: [Prolific.self]) { server in
            let ana = try await server.makeUsers(1, prefix: "days")[0]
            let story = try await ProlificFixtures.project(server, token: ana.token)
            let ninety = try await server.graphql(Self.activity, ["id": story.id, "days": 90], token: ana.token)
            #expect(ninety["data"]["project"]["activity"].array.count == 90, "\(ninety)")
            for days in [0, 91] {
                let refused = try await server.graphql(Self.activity, ["id": story.id, "days": days], token: ana.token)
                #expect(refused.errorCode == "BAD_USER_INPUT", "\(refused)")
            }
            let one = try await server.graphql("{ me { writerActivity(days: 1) { day } } }", token: ana.token)
            #expect(one["data"]["me"]["writerActivity"].array.count == 1, "\(one)")
            let over = try await server.graphql("{ me { writerActivity(days: 91) { day } } }", token: ana.token)
            #expect(over.errorCode == "BAD_USER_INPUT", "\(over)")
        }
    }

    @Test func viewsHeldWhenTheServerStopsAreWritten() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.start(
                databaseURL: url, mounting: [Prolific.self], settings: ["tally-write-seconds=3600"])
            let users = try await server.makeUsers(2, prefix: "stop")
            let story = try await ProlificFixtures.project(server, token: users[0].token)
            _ = try await server.graphql(Self.page, ["id": story.id], token: users[1].token)
            #expect(try await server.sql("SELECT count(*) FROM project_view_hours")[0].decode(Int.self, at: 0) == 0)
            await server.stopped()
            let rows = try await TestDatabase.withPool(url: url) { pool, _ in
                try await pool.query("SELECT sum(views)::int FROM project_view_hours WHERE project_id = $1", [rowID(story.id)])[0]
                    .decode(Int.self, at: 0)
            }
            #expect(rows == 1)
        }
    }

    private func rowID(_ id: String) -> Int64 { ProlificFixtures.rowID(id) }

    /// Waits (up to two minutes, for a busy machine) until `condition` holds.
    private func until(_ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while try await !condition() {
            try #require(ContinuousClock.now < deadline, "not written within two minutes")
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
