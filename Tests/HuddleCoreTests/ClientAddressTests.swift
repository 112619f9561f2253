import Foundation
import HuddleCore
import HuddleRuntime
import PostgresTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Limits per client address: the connection's peer, or what a trusted
/// proxy forwarded, never what a client says of itself.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct ClientAddressTests {
    static let logIn = "mutation($u: String!, $p: String!) { logIn(username: $u, password: $p) { token } }"

    func request(peer: String?, forwardedFor: [String]) -> HTTPRequest {
        HTTPRequest(
            head: HTTPRequestHead(
                method: "POST", target: "/graphql", version: .http11,
                headers: forwardedFor.map { HTTPHeader(name: "x-forwarded-for", value: $0) }),
            peerAddress: peer)
    }

    @Test func onlyATrustedProxysForwardedAddressIsBelieved() {
        let proxies = ClientAddress.TrustedProxies(["10.0.0.1", "10.0.0.2"])
        #expect(ClientAddress.of(request(peer: "198.51.100.7", forwardedFor: ["203.0.113.9"]), trusting: proxies) == "198.51.100.7")
        #expect(ClientAddress.of(request(peer: "10.0.0.1", forwardedFor: ["203.0.113.9"]), trusting: proxies) == "203.0.113.9")
        // A client's own claim before the proxies' is passed over: the nearest untrusted hop counts.
        #expect(
            ClientAddress.of(request(peer: "10.0.0.1", forwardedFor: ["1.2.3.4, 203.0.113.9", "10.0.0.2"]), trusting: proxies)
                == "203.0.113.9")
        #expect(ClientAddress.of(request(peer: "10.0.0.1", forwardedFor: []), trusting: proxies) == "10.0.0.1")
        #expect(ClientAddress.of(request(peer: "::1", forwardedFor: ["203.0.113.9"]), trusting: .none) == "::1")
        #expect(ClientAddress.of(request(peer: nil, forwardedFor: []), trusting: .none) == nil)
        // An IPv4 client on an IPv6 socket is itself, and a trusted proxy's too.
        #expect(ClientAddress.of(request(peer: "::ffff:198.51.100.7", forwardedFor: []), trusting: .none) == "198.51.100.7")
        #expect(ClientAddress.of(request(peer: "::ffff:10.0.0.1", forwardedFor: ["203.0.113.9"]), trusting: proxies) == "203.0.113.9")
    }

    /// Limits count an IPv6 client by its /64, which it cannot leave by changing address.
    @Test func limitsCountAnIPv6ClientByItsSlash64() {
        #expect(ClientAddress.limitKey("2001:db8:1:2::1") == ClientAddress.limitKey("2001:db8:1:2:ffff:eeee:dddd:cccc"))
        #expect(ClientAddress.limitKey("2001:db8:1:2::1") != ClientAddress.limitKey("2001:db8:1:3::1"))
        #expect(ClientAddress.limitKey("198.51.100.7") == "198.51.100.7")
        #expect(ClientAddress.limitKey("not an address") == "not an address")
    }

    /// Failed sign-ins with many names from one address block the address
    /// after its free failures; another address (through a trusted proxy)
    /// is not held up by it.
    @Test func anAddressIsBlockedAfterItsFreeFailuresWithAnyNames() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.start(
                databaseURL: url,
                settings: ["sign-in-address-free-failures=3", "sign-in-first-wait-seconds=600", "password-resets-per-address=2"]
            ) { $0.trustedProxies = ["127.0.0.1"] }
            defer { server.stop() }
            let from = { (address: String) in ["X-Forwarded-For": address] }
            for index in 0..<3 {
                let reply = try await server.graphql(Self.logIn, ["u": "name\(index)", "p": "wrong"], headers: from("203.0.113.1"))
                #expect(reply.errorCode == "UNAUTHENTICATED", "\(reply)")
            }
            let blocked = try await server.graphql(Self.logIn, ["u": "name9", "p": "wrong"], headers: from("203.0.113.1"))
            #expect(blocked.errorCode == "RATE_LIMITED", "\(blocked)")
            #expect(blocked.errorMessage?.hasPrefix("Too many failed sign-ins from this address; try again in ") == true)
            let elsewhere = try await server.graphql(Self.logIn, ["u": "name9", "p": "wrong"], headers: from("203.0.113.2"))
            #expect(elsewhere.errorCode == "UNAUTHENTICATED", "\(elsewhere)")

            // Password resets: the setting's number from one address, whatever was asked for; then RATE_LIMITED.
            let reset = "mutation($e: String!) { requestPasswordReset(email: $e) }"
            for index in 0..<2 {
                let reply = try await server.graphql(reset, ["e": "someone\(index)@example.com"], headers: from("203.0.113.3"))
                #expect(reply["data"]["requestPasswordReset"].bool == true, "\(reply)")
            }
            let over = try await server.graphql(reset, ["e": "someone9@example.com"], headers: from("203.0.113.3"))
            #expect(over.errorCode == "RATE_LIMITED", "\(over)")
            let other = try await server.graphql(reset, ["e": "someone9@example.com"], headers: from("203.0.113.4"))
            #expect(other["data"]["requestPasswordReset"].bool == true, "\(other)")
        }
    }

    /// Without a trusted proxy the header is ignored: sending a new
    /// X-Forwarded-For with each try does not escape the address's block.
    @Test func aClientCannotChooseItsAddress() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.start(
                databaseURL: url, settings: ["sign-in-address-free-failures=2", "sign-in-first-wait-seconds=600"])
            defer { server.stop() }
            for index in 0..<2 {
                _ = try await server.graphql(
                    Self.logIn, ["u": "n\(index)", "p": "wrong"], headers: ["X-Forwarded-For": "198.51.100.\(index)"])
            }
            let blocked = try await server.graphql(Self.logIn, ["u": "n5", "p": "wrong"], headers: ["X-Forwarded-For": "198.51.100.77"])
            #expect(blocked.errorCode == "RATE_LIMITED", "\(blocked)")
        }
    }
}
