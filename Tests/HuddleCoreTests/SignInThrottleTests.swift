import Foundation
import HuddleCore
import HuddleRuntime
import PostgresTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Failed sign-ins against a real server: a name gets a few free failures,
/// then each further one blocks it for twice as long, up to the longest
/// wait; a burst at once is counted as it arrives; a name no account has
/// is answered exactly as one an account has.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct SignInThrottleTests {
    static let logIn = "mutation($u: String!, $p: String!) { logIn(username: $u, password: $p) { token } }"

    func attempt(_ server: TestServer, _ name: String, _ password: String) async throws -> JSON {
        try await server.graphql(Self.logIn, ["u": name, "p": password])
    }

    @Test func aNameIsBlockedAfterItsFreeFailuresAndAnUnknownOneAlike() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.start(
                databaseURL: url,
                settings: ["sign-in-free-failures=3", "sign-in-first-wait-seconds=600", "sign-in-longest-wait-seconds=3600"])
            defer { server.stop() }
            _ = try await server.signUp("thr_ana")
            var answers: [String: [String]] = [:]
            for name in ["thr_ana", "nobody_here"] {
                for _ in 0..<3 {
                    let reply = try await attempt(server, name, "wrong password")
                    answers[name, default: []].append("\(reply.errorCode ?? "") \(reply.errorMessage ?? "")")
                }
                // Blocked now, even with the right password.
                let blocked = try await attempt(server, name, "correct horse battery")
                #expect(blocked.errorCode == "RATE_LIMITED", "\(blocked)")
                answers[name, default: []].append("\(blocked.errorCode ?? "") \(blocked.errorMessage ?? "")")
            }
            // Word for word the same, whether an account has the name or
            // not, but for the seconds left (each counted from its own block).
            func words(_ answers: [String]?) -> [String] {
                (answers ?? []).map { $0.replacing(/\d+ seconds/, with: "N seconds") }
            }
            #expect(words(answers["thr_ana"]) == words(answers["nobody_here"]), "\(answers)")
            #expect(answers["thr_ana"]?.first == "UNAUTHENTICATED Wrong username or password.")
            #expect(words(answers["thr_ana"]).last == "RATE_LIMITED Too many failed sign-ins with this name; try again in N seconds.")
            for answer in [answers["thr_ana"]?.last, answers["nobody_here"]?.last] {
                let seconds = (answer?.firstMatch(of: /in (\d+) seconds/)).flatMap { Int($0.1) } ?? 0
                #expect((1...600).contains(seconds), "\(answer ?? "")")
            }
            // No name is stored, only its hash keyed by the deployment's key:
            // the two names', and the client address's. A plain SHA-256 of
            // the name (a list of names away) is not among them.
            let stored = try await server.sql("SELECT name_hash FROM sign_in_failures").map { try $0.decode(String.self, at: 0) }
            #expect(stored.count == 3 && !stored.contains { $0.contains("thr_ana") })
            let key = try await server.sql("SELECT key FROM sign_in_throttle_key")[0].decode([UInt8].self, at: 0)
            #expect(stored.contains(Digest.sha256Hex(key + Array("sign-in:thr_ana".utf8))), "\(stored)")
            #expect(!stored.contains(Digest.sha256Hex(Array("sign-in:thr_ana".utf8))))

            // Once the block is over (as if ten minutes had passed), the
            // right password signs in and clears the name's count (not the address's).
            _ = try await server.sql("UPDATE sign_in_failures SET blocked_until = now()")
            let signedIn = try await attempt(server, "THR_ANA", "correct horse battery")
            #expect(signedIn["data"]["logIn"]["token"].string != nil, "\(signedIn)")
            #expect(
                try await server.sql("SELECT count(*)::int FROM sign_in_failures WHERE failures > 0")[0].decode(Int.self, at: 0) == 2)
        }
    }

    @Test func eachFurtherFailureDoublesTheBlockUpToTheLongestWait() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.start(
                databaseURL: url,
                settings: ["sign-in-free-failures=1", "sign-in-first-wait-seconds=100", "sign-in-longest-wait-seconds=300"])
            defer { server.stop() }
            _ = try await server.signUp("thr_bo")
            // Measured from the failure's own instant: 100 s after the
            // first, 200 s after the second, then 300 s (the longest).
            for expected in [100.0, 200.0, 300.0, 300.0] {
                #expect(try await attempt(server, "thr_bo", "wrong password").errorCode == "UNAUTHENTICATED")
                let blocked = try await server.sql(
                    "SELECT extract(epoch FROM blocked_until - last_failure_at)::float8 FROM sign_in_failures")[0].decode(
                        Double.self, at: 0)
                #expect(blocked == expected)
                _ = try await server.sql("UPDATE sign_in_failures SET blocked_until = now()")
            }
        }
    }

    @Test func aBurstOfWrongPasswordsAtOnceIsCountedAsItArrives() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.start(
                databaseURL: url,
                settings: ["sign-in-free-failures=3", "sign-in-first-wait-seconds=600", "sign-in-longest-wait-seconds=3600"])
            defer { server.stop() }
            _ = try await server.signUp("thr_cy")
            let codes = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<12 {
                    group.addTask { try await attempt(server, "thr_cy", "guess number \(index)").errorCode ?? "" }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            // Three had their password checked; the others were refused before.
            #expect(codes.filter { $0 == "UNAUTHENTICATED" }.count == 3, "\(codes)")
            #expect(codes.filter { $0 == "RATE_LIMITED" }.count == 9, "\(codes)")
            // The account itself is untouched: its signed-in devices still work.
            #expect(try await server.sql("SELECT count(*)::int FROM auth_tokens")[0].decode(Int.self, at: 0) == 1)
        }
    }

    /// Checking the password again (to change it or the address, or to
    /// delete the account) counts as signing in does: a stolen session
    /// guesses no faster than a stranger, and the name's block covers both.
    @Test func rechecksOfThePasswordAreCountedWithTheSignIns() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.start(
                databaseURL: url, settings: ["sign-in-free-failures=2", "sign-in-first-wait-seconds=600"])
            defer { server.stop() }
            let ana = try await server.signUp("thr_recheck")
            let change = "mutation($p: String!) { changePassword(currentPassword: $p, newPassword: \"another password\") }"
            for _ in 0..<2 {
                #expect(try await server.graphql(change, ["p": "guess"], token: ana.token).errorCode == "BAD_USER_INPUT")
            }
            let blocked = try await server.graphql(change, ["p": "correct horse battery"], token: ana.token)
            #expect(blocked.errorCode == "RATE_LIMITED", "\(blocked)")
            let delete = try await server.graphql("mutation { deleteAccount(password: \"correct horse battery\") }", token: ana.token)
            #expect(delete.errorCode == "RATE_LIMITED", "\(delete)")
            #expect(try await attempt(server, "thr_recheck", "correct horse battery").errorCode == "RATE_LIMITED")
        }
    }
}
