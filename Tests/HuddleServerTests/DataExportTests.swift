import Foundation
import HuddleCore
import HuddlePostgres
import HuddleRuntime
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// `requestDataExport` with every app mounted, on the demo data: the
/// scheduler makes the document and mails a link, which downloads it once.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct DataExportTests {
    @Test func theLinkDownloadsEverythingTheAccountHoldsOnce() async throws {
        let smtp = try SMTPServer()
        try await TestServer.with(mounting: everyApp, mailing(to: smtp)) { server in
            try await EventLoop.withOwnThread { [databaseURL = server.databaseURL] loop in
                let pool = PostgresPool(TestDatabase.configuration(url: databaseURL), on: loop)
                do {
                    _ = try await DemoData.seed(.demo, apps: everyApp, into: pool)
                    await pool.close()
                } catch {
                    await pool.close()
                    throw error
                }
            }
            let logIn = try await server.graphql(
                "mutation($p: String!) { logIn(username: \"demo\", password: $p) { token } }", ["p": DemoData.password])
            let token = try #require(logIn["data"]["logIn"]["token"].string, "\(logIn)")
            #expect(
                try await server.graphql("mutation { requestDataExport }")["errors"][0]["extensions"]["code"].string == "UNAUTHENTICATED")
            let asked = try await server.graphql("mutation { requestDataExport }", token: token)
            #expect(asked["data"]["requestDataExport"].bool == true, "\(asked)")

            let mail = try await ParsedMail(try #require(try await smtp.waitForMessages(1).first))
            #expect(mail.to == "demo@example.com" && mail.subject == "Your Huddle data is ready")
            let link = try #require(mail.link, "\(mail.text)")
            #expect(link.contains("/account/export?token="))
            // Once made, another within the hour is refused.
            #expect(try await server.graphql("mutation { requestDataExport }", token: token).errorCode == "RATE_LIMITED")

            // Removed when its link expires, if nobody downloads it first.
            let expiry = try await server.sql(
                """
                SELECT count(*)::int FROM scheduled_jobs j JOIN data_exports e ON e.id = j.subject_id
                WHERE j.kind = 'account.export-expiry' AND j.due_at = e.expires_at
                """)
            #expect(try expiry[0].decode(Int.self, at: 0) == 1)
            let (status, body) = try await follow(link)
            #expect(status == 200)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], "\(body.prefix(300))")
            #expect(Set(document.keys) == ["exportedAt", "shared", "playmate", "prolific", "petmatch", "habitbuddies"])
            let shared = document["shared"] as? [String: Any] ?? [:]
            #expect((shared["profile"] as? [String: Any])?["username"] as? String == "demo")
            #expect((shared["profile"] as? [String: Any])?["password_hash"] == nil)
            #expect(!body.contains("password_hash") && !body.contains("token_hash"))
            // What the app sections hold is what the database holds for the account.
            func count(_ section: String, _ key: String) -> Int { ((document[section] as? [String: Any])?[key] as? [Any])?.count ?? -1 }
            func rows(_ sql: String) async throws -> Int { try await server.sql(sql)[0].decode(Int.self, at: 0) }
            #expect(count("shared", "friends") == (try await rows("SELECT count(*)::int FROM friendships WHERE user_id = 1")))
            #expect(
                count("playmate", "sessionsCreated") == (try await rows("SELECT count(*)::int FROM sports_sessions WHERE creator_id = 1")))
            #expect(count("prolific", "snippets") == (try await rows("SELECT count(*)::int FROM snippets WHERE author_id = 1")))
            #expect(count("petmatch", "swipes") == (try await rows("SELECT count(*)::int FROM pet_swipes WHERE user_id = 1")))
            #expect(count("habitbuddies", "habits") == (try await rows("SELECT count(*)::int FROM habits WHERE user_id = 1")))
            #expect(count("shared", "friends") > 0 && count("habitbuddies", "habits") > 0, "the demo account has data to export")

            // Downloaded once: the link is used up and the copy gone.
            #expect(try await follow(link).status == 400)
            #expect(try await server.sql("SELECT count(*)::int FROM data_exports")[0].decode(Int.self, at: 0) == 0)
        }
    }
}
