import Foundation
import HuddleCore
import PostgresTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// `changePassword` over HTTP: the current password is needed, the new one
/// follows the sign-up rules, and every other device is signed out at once
/// on this server and, through the database's notice, on the others.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct PasswordChangeTests {
    static let change = "mutation($c: String!, $n: String!) { changePassword(currentPassword: $c, newPassword: $n) }"

    func logIn(_ server: TestServer, _ username: String, _ password: String) async throws -> JSON {
        try await server.graphql(
            "mutation($u: String!, $p: String!) { logIn(username: $u, password: $p) { token } }", ["u": username, "p": password])
    }

    @Test func theCurrentPasswordChangesItAndSignsOutEveryOtherDevice() async throws {
        try await TestServer.withTwo { first, second in
            let phone = try await first.signUp("pwd_ana")
            let laptop = try #require(try await logIn(first, "pwd_ana", "correct horse battery")["data"]["logIn"]["token"].string)
            // The laptop's token is checked (and kept) on the second server too.
            #expect(try await second.graphql("{ me { username } }", token: laptop)["data"]["me"]["username"].string == "pwd_ana")

            let changed = try await first.graphql(Self.change, ["c": "correct horse battery", "n": "a new staple"], token: phone.token)
            #expect(changed["data"]["changePassword"].bool == true, "\(changed)")

            // The device that changed it stays signed in; the other is out, here at once.
            #expect(try await first.graphql("{ me { username } }", token: phone.token)["data"]["me"]["username"].string == "pwd_ana")
            #expect(try await first.graphql("{ me { username } }", token: laptop)["data"]["me"].isNull)
            // And on the other server once its listener has the notice.
            var elsewhere = JSON.null
            for _ in 0..<100 {
                elsewhere = try await second.graphql("{ me { username } }", token: laptop)
                if elsewhere["data"]["me"].isNull { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(elsewhere["data"]["me"].isNull, "\(elsewhere)")
            #expect(try await first.sql("SELECT count(*)::int FROM auth_tokens")[0].decode(Int.self, at: 0) == 1)

            // Only the new password signs in.
            #expect(try await logIn(first, "pwd_ana", "correct horse battery").errorCode == "UNAUTHENTICATED")
            #expect(try await logIn(first, "pwd_ana", "a new staple")["data"]["logIn"]["token"].string != nil)
        }
    }

    @Test func aWrongCurrentPasswordOrABadNewOneChangesNothing() async throws {
        try await TestServer.with { server in
            let phone = try await server.signUp("pwd_bo")
            let laptop = try #require(try await logIn(server, "pwd_bo", "correct horse battery")["data"]["logIn"]["token"].string)
            let hash = try await server.sql("SELECT password_hash FROM users WHERE username = 'pwd_bo'")[0].decode(String.self, at: 0)

            let wrong = try await server.graphql(Self.change, ["c": "not my password", "n": "a new staple"], token: phone.token)
            #expect(wrong.errorCode == "BAD_USER_INPUT", "\(wrong)")
            #expect(wrong.errorMessage == "The current password is not right.")
            #expect(wrong["data"].isNull)
            // At the limits of a password's length (8 to 256 characters), and just past them.
            for (password, accepted) in [
                (String(repeating: "x", count: 7), false), (String(repeating: "x", count: 257), false),
            ] {
                let reply = try await server.graphql(Self.change, ["c": "correct horse battery", "n": password], token: phone.token)
                #expect((reply.errorCode == nil) == accepted, "\(password.count): \(reply)")
            }
            let signedOut = try await server.graphql(Self.change, ["c": "correct horse battery", "n": "a new staple"])
            #expect(signedOut.errorCode == "UNAUTHENTICATED")

            // Nothing changed: the same hash, both devices still in.
            #expect(try await server.sql("SELECT password_hash FROM users WHERE username = 'pwd_bo'")[0].decode(String.self, at: 0) == hash)
            #expect(try await server.graphql("{ me { username } }", token: laptop)["data"]["me"]["username"].string == "pwd_bo")

            for (length, password) in [(8, String(repeating: "y", count: 8)), (256, String(repeating: "z", count: 256))] {
                let current = length == 8 ? "correct horse battery" : String(repeating: "y", count: 8)
                let reply = try await server.graphql(Self.change, ["c": current, "n": password], token: phone.token)
                #expect(reply["data"]["changePassword"].bool == true, "\(length): \(reply)")
            }
            #expect(try await logIn(server, "pwd_bo", String(repeating: "z", count: 256))["data"]["logIn"]["token"].string != nil)
        }
    }
}
