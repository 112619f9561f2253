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

    /// Counts in the hour the test began, whenever a read comes (an hour
    /// passing mid-test would count Bob again), written every second.
    static func pinnedHour(_ configuration: inout HuddleServer.Configuration) {
        let began = Date()
        configuration.tallyClock = { began }
        configuration.appSettings = try! AppSettings(
            AppSettings.declared(mounting: [Prolific.self]), environment: [:], assignments: ["tally-write-seconds=1"])
    }

    @Test func theOwnerSeesViewsVotesAndSnippetsByDayInTheirTimeZone() async throws {
        try await TestServer.with(mounting: [Prolific.self], Self.pinnedHour) { server in
            let users = try await server.makeUsers(3, prefix: "viewer")
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
            try await until {
                let pages = try await server.sql("SELECT coalesce(sum(views), 0)::int FROM project_view_hours")[0].decode(Int.self, at: 0)
                let taps = try await server.sql("SELECT coalesce(sum(views), 0)::int FROM snippet_view_hours")[0].decode(Int.self, at: 0)
                return pages == 3 && taps == 1
            }
            // Bob again, after the write: the same hour, so not again.
            _ = try await server.graphql(Self.page, ["id": story.id], token: bob.token)

            let todayBefore = try await Self.today(server)
            let seen = try await server.graphql(Self.activity, ["id": story.id, "days": 7], token: ana.token)
            let todayAfter = try await Self.today(server)
            let days = seen["data"]["project"]["activity"].array
            #expect(days.count == 7, "\(seen)")
            #expect([todayBefore, todayAfter].contains(days.last?["day"].string), "\(seen)")
            // Summed over the week: a day may have turned in Kiritimati mid-test.
            func total(_ field: String) -> Int { days.compactMap { $0[field].int }.reduce(0, +) }
            #expect(total("views") == 3 && total("snippetViews") == 1 && total("votes") == 1 && total("snippets") == 1, "\(seen)")
            // Only the owner.
            let bobs = try await server.graphql(Self.activity, ["id": story.id, "days": 7], token: bob.token)
            #expect(bobs["data"]["project"]["activity"].isNull && bobs["errors"].isNull, "\(bobs)")

            // The writers' own: Ana's project was opened 3 times; Cara's snippet once, and voted for.
            let anas = try await server.graphql(Self.writer, token: ana.token)
            #expect(anas["data"]["me"]["writerActivity"].array.compactMap { $0["projectViews"].int }.reduce(0, +) == 3, "\(anas)")
            let caras = try await server.graphql(Self.writer, token: cara.token)
            let caraDays = caras["data"]["me"]["writerActivity"].array
            func caraTotal(_ field: String) -> Int { caraDays.compactMap { $0[field].int }.reduce(0, +) }
            #expect(caraTotal("snippetViews") == 1 && caraTotal("votesReceived") == 1, "\(caras)")
            #expect(caraTotal("snippetsWritten") == 1 && caraTotal("projectViews") == 0, "\(caras)")
            let others = try await server.graphql(
                "query($id: ID!) { user(id: $id) { writerActivity { day } } }", ["id": cara.id], token: bob.token)
            #expect(others["data"]["user"]["writerActivity"].isNull && others["errors"].isNull, "\(others)")

            // The two signed-in readers warmed it; the database holds the rules.
            let heatAfter = try await server.sql("SELECT heat FROM projects WHERE id = $1", [rowID(story.id)])[0].decode(Double.self, at: 0)
            #expect(heatAfter > heatBefore)
            await #expect(throws: (any Error).self) {
                _ = try await server.sql(
                    "INSERT INTO project_view_hours (project_id, hour, views) VALUES ($1, date_trunc('hour', now()) + interval '1 ms', 1)",
                    [rowID(story.id)])
            }
            await #expect(throws: (any Error).self) {
                _ = try await server.sql(
                    "INSERT INTO project_view_hours (project_id, hour, views) VALUES ($1, date_trunc('hour', now()) - interval '1 hour', 0)",
                    [rowID(story.id)])
            }
        }
    }

    /// Today in Kiritimati, as PostgreSQL says.
    static func today(_ server: TestServer) async throws -> String {
        try await server.sql("SELECT to_char(now() AT TIME ZONE 'Pacific/Kiritimati', 'YYYY-MM-DD')")[0].decode(String.self, at: 0)
    }

    /// A page of projects and aliases of `writerActivity` cost one statement each, whatever their number.
    @Test func activityOfAPageIsBatched() async throws {
        try await TestServer.with(mounting: [Prolific.self]) { server in
            let ana = try await server.makeUsers(1, prefix: "batch")[0]
            for title in ["One", "Two", "Three"] { _ = try await ProlificFixtures.project(server, token: ana.token, title: title) }
            let before = try await server.statementCount()
            let page = try await server.graphql(
                """
                { me { a: writerActivity(days: 3) { day } b: writerActivity(days: 5) { day }
                  projects(first: 10) { edges { node { activity(days: 2) { day views } } } } } }
                """, token: ana.token)
            let statements = try await server.statementCount() - before
            #expect(page["data"]["me"]["b"].array.count == 5, "\(page)")
            #expect(page["data"]["me"]["projects"]["edges"].array.count == 3, "\(page)")
            #expect(page["data"]["me"]["projects"]["edges"].array.allSatisfy { $0["node"]["activity"].array.count == 2 }, "\(page)")
            // The token's user, the user, the projects, their activity, the writer's activity.
            #expect(statements <= 5, "\(statements)")
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

    /// Deleting an account that owns and follows projects while views of
    /// them are written: both take the projects in id order, neither waits
    /// for the other forever.
    @Test func deletingAnAccountBesideViewBatchesFinishes() async throws {
        try await TestServer.with(mounting: [Prolific.self], Self.pinnedHour) { server in
            let ana = try await server.signUp("goneana")
            let bob = try await server.signUp("gonebob")
            var projects: [String] = []
            for index in 0..<6 {
                projects.append(try await ProlificFixtures.project(server, token: ana.token, title: "Story \(index)").id)
            }
            let bobs = try await ProlificFixtures.project(server, token: bob.token, title: "Bob's")
            let followed = try await server.graphql(
                "mutation($id: ID!) { followProject(projectId: $id) { id } }", ["id": bobs.id], token: ana.token)
            #expect(followed["errors"].isNull, "\(followed)")
            for project in projects { _ = try await server.graphql(Self.page, ["id": project], token: bob.token) }
            let deleted = try await server.graphql("mutation { deleteAccount(password: \"correct horse battery\") }", token: ana.token)
            #expect(deleted["data"]["deleteAccount"].bool == true, "\(deleted)")
            try await until {
                try await server.sql("SELECT coalesce(sum(views), 0)::int FROM project_view_hours")[0].decode(Int.self, at: 0) == 6
            }
            let owners = try await server.sql("SELECT count(*) FROM projects WHERE owner_id IS NULL")[0].decode(Int.self, at: 0)
            #expect(owners == 6)
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
