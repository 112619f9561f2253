import Foundation
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// The Playground as a person uses it, in headless Chromium driven by
/// selenium (Tests/clients/playground_browser.py): completion, a
/// diagnostic, sign-in, a query, a subscription event from another
/// client's mutation, docs, prettify, the operation picker, history, a
/// shared URL and a picture uploaded for an Upload variable. Screenshots are kept in .build/test-artifacts/playground.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct PlaygroundBrowserTests {
    static let artifacts = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("../../.build/test-artifacts/playground").standardizedFileURL

    @Test func aPersonWritesRunsAndSubscribesInTheBrowser() async throws {
        try await TestServer.with(mounting: everyApp) { server in
            // pg0 signs in in the browser (so through the API, with a password); sender0 only sends.
            let signedIn = try await server.signUp("pg0")
            let sender = try await server.makeUsers(1, prefix: "sender")[0]
            let outcome = try await ClientProcess.python(
                "playground_browser.py",
                ["\(server.port)", "pg0", "correct horse battery", sender.token, signedIn.id, Self.artifacts.path]
            ).finished()
            #expect(outcome.status == 0, "\(outcome.errors)")
            let lines = outcome.output.split(separator: "\n").map(String.init)
            let expected = [
                "loaded Huddle Playground",
                "offered ['username']",
                "completed { me { username}}",
                "marked nmae",
                "diagnostic Cannot query field \"nmae\" on type \"User\".",
                "account Signed in as pg0",
                "result {\"data\": {\"me\": {\"friendCount\": 0, \"username\": \"pg0\"}}}",
                "status 200",
                "prettified \"query Q($n: Int) {\\n  me {\\n    friends(first: $n) {\\n      totalCount\\n    }\\n  }\\n}\"",
                "operations ['query First', 'query Second']",
                "picked {\"data\": {\"me\": {\"username\": \"pg0\"}}}",
                "sent True",
                "event {\"data\": {\"friendRequestReceived\": {\"from\": {\"username\": \"sender0\"}, \"to\": {\"username\": \"pg0\"}}}}",
                "events 1",
                "query fields include me True",
                "search True",
                "history True",
                "shared query Shared($first: Int) { me { friends(first: $first) { totalCount } } } {\"first\": 2}",
                "redirected /playground { me { id } }",
                "uploaded True",
                "console errors []",
            ]
            #expect(lines == expected)
            for name in ["completion", "diagnostic", "query", "subscription", "docs", "overview", "upload"] {
                #expect(FileManager.default.fileExists(atPath: Self.artifacts.appendingPathComponent(name + ".png").path))
            }
        }
    }
}
