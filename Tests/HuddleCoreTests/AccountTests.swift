import Foundation
import HuddleCore
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Accounts and profiles over HTTP, against a real server and database.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct AccountTests {
    static let badURL =
        "\"profileImageUrl\" must be an http:// or https:// URL of at most 2048 characters, with no spaces or control characters."

    @Test func signUpLogInMeAndLogOut() async throws {
        try await TestServer.with { server in
            let ana = try await server.signUp("ana")
            let me = try await server.graphql("{ me { id username email } }", token: ana.token)
            #expect(me["data"]["me"]["username"].string == "ana")
            #expect(me["data"]["me"]["email"].string == "ana@example.com")
            #expect(me["data"]["me"]["id"].string == ana.id)

            // By username or email, ignoring case.
            for name in ["ANA", "Ana@Example.com"] {
                let login = try await server.graphql(
                    "mutation($u: String!) { logIn(username: $u, password: \"correct horse battery\") { token user { username email } } }",
                    ["u": name])
                #expect(login["data"]["logIn"]["user"]["email"].string == "ana@example.com", "\(login)")
            }
            let wrong = try await server.graphql(#"mutation { logIn(username: "ana", password: "wrong password") { token } }"#)
            #expect(wrong.errorCode == "UNAUTHENTICATED")
            #expect(wrong.errorMessage == "Wrong username or password.")
            let nobody = try await server.graphql(#"mutation { logIn(username: "nobody", password: "correct horse battery") { token } }"#)
            #expect(nobody.errorCode == "UNAUTHENTICATED")

            // Logging out revokes the token, and only that one.
            let second = try await server.graphql(#"mutation { logIn(username: "ana", password: "correct horse battery") { token } }"#)
            let secondToken = try #require(second["data"]["logIn"]["token"].string)
            #expect(try await server.graphql("mutation { logOut }", token: ana.token)["data"]["logOut"].bool == true)
            #expect(try await server.graphql("{ me { id } }", token: ana.token)["data"]["me"].isNull)
            #expect(try await server.graphql("{ me { username } }", token: secondToken)["data"]["me"]["username"].string == "ana")
            #expect(try await server.graphql("mutation { logOut }")["errors"][0]["extensions"]["code"].string == "UNAUTHENTICATED")
        }
    }

    @Test func badSignUpsAreRefusedAndWriteNothing() async throws {
        try await TestServer.with { server in
            _ = try await server.signUp("bob")
            let cases: [(String, String, String, String)] = [
                ("BOB", "other@example.com", "correct horse battery", "The username \"BOB\" is taken."),
                ("other", "Bob@Example.com", "correct horse battery", "An account with that email exists already."),
                ("x", "x@example.com", "correct horse battery", "A username is 3 to 30 letters, digits, \"_\" or \".\"."),
                ("has space", "s@example.com", "correct horse battery", "A username is 3 to 30 letters, digits, \"_\" or \".\"."),
                (
                    String(repeating: "a", count: 31), "long@example.com", "correct horse battery",
                    "A username is 3 to 30 letters, digits, \"_\" or \".\"."
                ),
                ("carla", "not-an-email", "correct horse battery", "\"not-an-email\" is not an email address."),
                ("carla", "carla@example.com", "short", "A password is 8 to 256 characters."),
            ]
            for (username, email, password, message) in cases {
                let reply = try await server.graphql(
                    "mutation($u: String!, $e: String!, $p: String!) { signUp(username: $u, email: $e, password: $p) { token } }",
                    ["u": username, "e": email, "p": password])
                #expect(reply.errorCode == "BAD_USER_INPUT", "\(username)")
                #expect(reply.errorMessage == message)
                #expect(reply["data"].isNull)
            }
            // At the limit: 30 characters is fine.
            _ = try await server.signUp(String(repeating: "a", count: 30))
            #expect(try await server.sql("SELECT count(*)::int FROM users")[0].decode(Int.self, at: 0) == 2)
        }
    }

    @Test func profilesAreEditableAndPrivateFieldsStayPrivate() async throws {
        try await TestServer.with { server in
            let ana = try await server.signUp("ana")
            let bo = try await server.signUp("bob")
            let update = try await server.graphql(
                """
                mutation { updateProfile(input: {firstName: "Ana", lastName: "Lima", birthday: "1994-07-30", gender: FEMALE,
                  biography: "Tennis on weekends.", profileImageUrl: "https://example.com/ana.png",
                  homeLocation: {latitude: 40.7, longitude: -74.0}}) {
                  firstName lastName birthday gender biography profileImageUrl homeLocation { latitude longitude } email } }
                """, token: ana.token)
            let profile = update["data"]["updateProfile"]
            #expect(profile["firstName"].string == "Ana")
            #expect(profile["birthday"].string == "1994-07-30")
            #expect(profile["gender"].string == "FEMALE")
            #expect(profile["homeLocation"]["latitude"].double == 40.7)
            #expect(profile["email"].string == "ana@example.com")

            // Bo sees Ana's public profile without her email, birthday or home.
            let seen = try await server.graphql(
                "query($id: ID!) { user(id: $id) { firstName email birthday homeLocation { latitude } biography } }",
                ["id": ana.id], token: bo.token)
            #expect(seen["data"]["user"]["firstName"].string == "Ana")
            #expect(seen["data"]["user"]["email"].isNull)
            #expect(seen["data"]["user"]["birthday"].isNull)
            #expect(seen["data"]["user"]["homeLocation"].isNull)
            #expect(seen["data"]["user"]["biography"].string == "Tennis on weekends.")

            // Null clears an optional field; absent fields stay.
            let cleared = try await server.graphql(
                "mutation { updateProfile(input: {profileImageUrl: null}) { firstName profileImageUrl } }", token: ana.token)
            #expect(cleared["data"]["updateProfile"]["profileImageUrl"].isNull)
            #expect(cleared["data"]["updateProfile"]["firstName"].string == "Ana")

            let bad: [(String, String)] = [
                (#"{birthday: "2999-01-01"}"#, "\"birthday\" must be in the past."),
                (#"{birthday: "1899-12-31"}"#, "\"birthday\" must be in 1900 or later."),
                (#"{profileImageUrl: "javascript:alert(1)"}"#, Self.badURL),
                // The database's check would refuse these: Swift refuses them first.
                (#"{profileImageUrl: "https://example.com/a b.png"}"#, Self.badURL),
                (#"{profileImageUrl: "HTTPS://example.com/a.png"}"#, Self.badURL),
                (#"{profileImageUrl: "https://example.com/a\u0007.png"}"#, Self.badURL),
                ("{firstName: \"\(String(repeating: "x", count: 101))\"}", "\"firstName\" is at most 100 characters."),
                (#"{firstName: null}"#, "\"firstName\" cannot be null."),
                (#"{homeLocation: {latitude: 91, longitude: 0}}"#, "Latitude is between -90 and 90 and longitude between -180 and 180."),
            ]
            for (input, message) in bad {
                let reply = try await server.graphql("mutation { updateProfile(input: \(input)) { firstName } }", token: ana.token)
                #expect(reply.errorCode == "BAD_USER_INPUT", "\(input)")
                #expect(reply.errorMessage == message)
            }
            // A day that is not in the calendar is refused by the Date scalar, before any resolver.
            let notADay = try await server.graphql(
                #"mutation { updateProfile(input: {birthday: "1994-02-30"}) { firstName } }"#, token: ana.token)
            #expect(notADay.errorCode == "GRAPHQL_VALIDATION_FAILED")
            #expect(notADay.errorMessage == #"Date cannot represent an invalid date string: "1994-02-30"."#)
            let asVariable = try await server.graphql(
                "mutation($d: Date) { updateProfile(input: {birthday: $d}) { firstName } }", ["d": "1994-02-30"], token: ana.token)
            #expect(asVariable.errorCode == "BAD_USER_INPUT")
            #expect(
                asVariable.errorMessage
                    == #"Variable "$d" got invalid value "1994-02-30"; Date cannot represent an invalid date string: "1994-02-30"."#)
            // A 100-character name is at the limit.
            let atLimit = try await server.graphql(
                "mutation { updateProfile(input: {firstName: \"\(String(repeating: "x", count: 100))\"}) { firstName } }", token: ana.token)
            #expect(atLimit["data"]["updateProfile"]["firstName"].string?.count == 100)
            let anonymous = try await server.graphql("mutation { updateProfile(input: {firstName: \"Eve\"}) { firstName } }")
            #expect(anonymous.errorCode == "UNAUTHENTICATED")
        }
    }
}

/// The `Authorization` header's bearer token, as every request reads it.
struct BearerTokenTests {
    @Test func theSchemeIsMatchedWithoutCaseAndTheTokenTrimmed() {
        #expect(Authentication.bearerToken("Bearer abc") == "abc")
        #expect(Authentication.bearerToken("bEaReR abc") == "abc")
        #expect(Authentication.bearerToken("Bearer   abc \t") == "abc")
        #expect(Authentication.bearerToken("Bearer \tabc.def-_~+/=") == "abc.def-_~+/=")
    }

    @Test func otherSchemesAndMalformedHeadersHaveNoToken() {
        for header in [
            nil, "", "Bearer", "Bearer ", "Bearer  \t", "Bearerabc", "Basic YWxhZGRpbjpvcGVuc2VzYW1l", "Bear abc", "Bearer\tabc",
            " Bearer abc", "Bearés abc",
        ] {
            #expect(Authentication.bearerToken(header) == nil, "\(String(describing: header))")
        }
    }

    /// PostgreSQL's text cannot hold U+0000 and libpq would cut the value
    /// there: a biography with one is refused, and no one signs in as
    /// another by a name cut at the NUL.
    @Test func textWithANulCharacterIsRefusedNeverCutShort() async throws {
        try await TestServer.with { server in
            let ana = try await server.makeUsers(1, prefix: "nul")[0]
            let biography = try await server.graphql(
                "mutation($b: String) { updateProfile(input: {biography: $b}) { biography } }", ["b": "Hi\u{0}there"], token: ana.token)
            #expect(biography.errorCode == "BAD_USER_INPUT", "\(biography)")
            #expect(biography.errorMessage == APIError.nulCharacterMessage)
            #expect(try await server.sql("SELECT count(*)::int FROM users WHERE biography LIKE 'Hi%'")[0].decode(Int.self, at: 0) == 0)

            let logIn = try await server.graphql(
                "mutation($u: String!, $p: String!) { logIn(username: $u, password: $p) { token } }",
                ["u": "nul0\u{0}junk", "p": "whatever"])
            #expect(logIn.errorCode == "BAD_USER_INPUT", "\(logIn)")
            #expect(logIn.errorMessage == APIError.nulCharacterMessage)
            #expect(logIn["data"]["logIn"]["token"].isNull)
        }
    }
}
