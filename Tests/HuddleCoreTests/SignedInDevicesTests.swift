import Foundation
import GraphQL
import HuddleCore
import PostgresTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// The signed-in user's devices over HTTP: each sign-in is one, named by
/// the User-Agent it came with; one can be signed out, or all but the
/// request's; using a token records when, and moves its expiry on.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct SignedInDevicesTests {
    static let devices = "{ signedInDevices { id signedInAt lastUsedAt expiresAt userAgent current } }"

    /// An operation sent by curl with `userAgent`, as a phone's app would send it.
    func post(_ server: TestServer, _ query: String, _ variables: [String: any Sendable] = [:], userAgent: String) async throws -> JSON {
        let body = String(decoding: try JSONSerialization.data(withJSONObject: ["query": query, "variables": variables]), as: UTF8.self)
        let (output, errors) = try await offThePool {
            try curl([
                "-X", "POST", "-H", "Content-Type: application/json", "-A", userAgent, "--data-binary", body,
                "http://127.0.0.1:\(server.port)/graphql",
            ])
        }
        return JSON((try? JSONReader().read(output)) ?? .string(errors))
    }

    func signIn(_ server: TestServer, _ username: String, userAgent: String) async throws -> String {
        let reply = try await post(
            server, "mutation($u: String!) { logIn(username: $u, password: \"correct horse battery\") { token } }", ["u": username],
            userAgent: userAgent)
        return try #require(reply["data"]["logIn"]["token"].string, "\(reply)")
    }

    @Test func eachSignInIsADeviceThatCanBeSignedOut() async throws {
        try await TestServer.with { server in
            let phone = try await server.signUp("dev_ana")
            let laptop = try await signIn(server, "dev_ana", userAgent: "Laptop/2.0")
            let tablet = try await signIn(server, "dev_ana", userAgent: "Tablet/3.0")
            let other = try await server.signUp("dev_bo")

            let listed = try await server.graphql(Self.devices, token: phone.token)["data"]["signedInDevices"].array
            #expect(listed.count == 3)
            #expect(listed.filter { $0["current"].bool == true }.count == 1)
            #expect(Set(listed.compactMap { $0["userAgent"].string }).isSuperset(of: ["Laptop/2.0", "Tablet/3.0"]))
            let inAMonth = Date().addingTimeInterval(29 * 24 * 3600)
            for device in listed {
                #expect((Instant.parse(device["expiresAt"].string ?? "") ?? .distantPast) > inAMonth, "\(device)")
                #expect(device["signedInAt"].string != nil && device["lastUsedAt"].string != nil)
            }
            let laptopID = try #require(listed.first { $0["userAgent"].string == "Laptop/2.0" }?["id"].string)

            // Another account's device, an id of another type, signed out: refused, nothing ended.
            let theirs = try await server.graphql("mutation($id: ID!) { signOutDevice(id: $id) }", ["id": laptopID], token: other.token)
            #expect(theirs.errorCode == "NOT_FOUND", "\(theirs)")
            let wrongType = try await server.graphql(
                "mutation($id: ID!) { signOutDevice(id: $id) }", ["id": phone.id], token: phone.token)
            #expect(wrongType.errorCode == "BAD_USER_INPUT", "\(wrongType)")
            #expect(try await server.graphql(Self.devices).errorCode == "UNAUTHENTICATED")
            #expect(try await server.graphql("mutation { signOutOtherDevices }").errorCode == "UNAUTHENTICATED")
            #expect(try await server.graphql("{ me { username } }", token: laptop)["data"]["me"]["username"].string == "dev_ana")

            let out = try await server.graphql("mutation($id: ID!) { signOutDevice(id: $id) }", ["id": laptopID], token: phone.token)
            #expect(out["data"]["signOutDevice"].bool == true, "\(out)")
            #expect(try await server.graphql("{ me { username } }", token: laptop)["data"]["me"].isNull)
            #expect(try await server.graphql("{ me { username } }", token: tablet)["data"]["me"]["username"].string == "dev_ana")

            let others = try await server.graphql("mutation { signOutOtherDevices }", token: phone.token)
            #expect(others["data"]["signOutOtherDevices"].int == 1, "\(others)")
            #expect(try await server.graphql("{ me { username } }", token: tablet)["data"]["me"].isNull)
            let left = try await server.graphql(Self.devices, token: phone.token)["data"]["signedInDevices"].array
            #expect(left.count == 1 && left[0]["current"].bool == true)
            // The other account was not touched.
            #expect(try await server.graphql("{ me { username } }", token: other.token)["data"]["me"]["username"].string == "dev_bo")
        }
    }

    @Test func theListsSizeIsBoundedAtAndPastItsLimits() async throws {
        try await TestServer.with { server in
            let ana = try await server.signUp("dev_cy")
            for (first, accepted) in [(0, false), (1, true), (100, true), (101, false)] {
                let reply = try await server.graphql("query($n: Int) { signedInDevices(first: $n) { id } }", ["n": first], token: ana.token)
                #expect((reply.errorCode == nil) == accepted, "\(first): \(reply)")
                if !accepted { #expect(reply.errorCode == "BAD_USER_INPUT") }
            }
        }
    }

    @Test func aUserAgentIsKeptToItsFirst512Characters() async throws {
        try await TestServer.with { server in
            _ = try await server.signUp("dev_di")
            for (length, kept) in [(512, 512), (513, 512), (4000, 512)] {
                let token = try await signIn(server, "dev_di", userAgent: String(repeating: "é", count: length))
                let stored = try await server.sql(
                    "SELECT char_length(user_agent) FROM auth_tokens WHERE token_hash = $1", [Authentication.hash(token)])
                #expect(try stored[0].decode(Int.self, at: 0) == kept, "\(length)")
            }
        }
    }

    @Test func aUseRecordsWhenAndMovesTheExpiryOnWithoutRevokingIt() async throws {
        try await TestServer.with({ $0.tokenCacheLifetime = .zero }) { server in
            let ana = try await server.signUp("dev_ed")
            let hash = Authentication.hash(ana.token)
            // As if last used an hour ago and due to expire tomorrow; set
            // quietly (this database is the test's own), since cutting a
            // token short is a revocation the servers would hear of.
            _ = try await server.sql("ALTER TABLE auth_tokens DISABLE TRIGGER auth_tokens_revoked")
            _ = try await server.sql(
                "UPDATE auth_tokens SET last_used_at = now() - interval '1 hour', expires_at = now() + interval '1 day' WHERE token_hash = $1",
                [hash])
            _ = try await server.sql("ALTER TABLE auth_tokens ENABLE TRIGGER auth_tokens_revoked")
            // A socket signed in with the token, which a revocation would close.
            let socket = try subscriber(port: server.port, token: ana.token)
            socket.send(#"{"id":"1","type":"subscribe","payload":{"query":"subscription { notificationReceived { id } }"}}"#)
            try await waitForSubscriptions(1, server: server)

            #expect(try await server.graphql("{ me { username } }", token: ana.token)["data"]["me"]["username"].string == "dev_ed")
            let row = try await server.sql(
                """
                SELECT extract(epoch FROM now() - last_used_at)::float8, extract(epoch FROM expires_at - now())::float8
                FROM auth_tokens WHERE token_hash = $1
                """, [hash])
            #expect(try row[0].decode(Double.self, at: 0) < 60)
            #expect(try row[0].decode(Double.self, at: 1) > 29 * 24 * 3600)
            // Renewed, not revoked: the socket's subscription still runs.
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await server.metric("huddle_active_subscriptions") == 1)
        }
    }

    /// `session-days` sets how long a token lasts: from its sign-in, and from each use.
    @Test func theSessionLengthIsASetting() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.start(databaseURL: url, settings: ["session-days=2"]) { $0.tokenCacheLifetime = .zero }
            defer { server.stop() }
            let ana = try await server.signUp("short_lived")
            func expiresIn() async throws -> Double {
                try await server.sql(
                    "SELECT extract(epoch FROM expires_at - now())::float8 FROM auth_tokens WHERE token_hash = $1",
                    [Authentication.hash(ana.token)])[0].decode(Double.self, at: 0)
            }
            #expect(abs(try await expiresIn() - 2 * 86_400) < 120)
            _ = try await server.sql(
                "UPDATE auth_tokens SET last_used_at = now() - interval '1 hour' WHERE token_hash = $1", [Authentication.hash(ana.token)])
            _ = try await server.graphql("{ me { id } }", token: ana.token)
            #expect(abs(try await expiresIn() - 2 * 86_400) < 120)
        }
        #expect(throws: Error.self) {
            try AppSettings(AppSettings.declared(mounting: []), environment: [:], assignments: ["session-days=366"])
        }
        #expect(
            try AppSettings(AppSettings.declared(mounting: []), environment: [:], assignments: ["session-days=365"])[Shared.sessionDays]
                == 365)
    }

    /// A device's address is kept and shown only when the operator says so.
    @Test func theAddressIsKeptOnlyWhenTheSettingSaysSo() async throws {
        for (setting, expected) in [("record-device-addresses=0", nil), ("record-device-addresses=1", "127.0.0.1")] as [(String, String?)] {
            try await TestDatabase.withScratchDatabase { url in
                let server = try await TestServer.start(databaseURL: url, settings: [setting])
                defer { server.stop() }
                let ana = try await server.signUp("addr_ana")
                let devices = try await server.graphql("{ signedInDevices { ipAddress } }", token: ana.token)
                #expect(devices["data"]["signedInDevices"][0]["ipAddress"].string == expected, "\(setting): \(devices)")
                let stored = try await server.sql("SELECT count(*)::int FROM auth_tokens WHERE ip_address IS NOT NULL")[0].decode(
                    Int.self, at: 0)
                #expect(stored == (expected == nil ? 0 : 1))
            }
        }
    }
}
