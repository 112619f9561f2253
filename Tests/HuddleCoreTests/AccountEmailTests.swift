import Foundation
import HuddleCore
import HuddleMail
import HuddleRuntime
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// An account's address and mail, end to end: the server sends through a
/// real SMTP server (aiosmtpd), the test reads the link out of the message
/// and follows it with curl as a browser would.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct AccountEmailTests {
    static let verified = "{ me { email emailVerified } }"

    @Test func signingUpMailsALinkThatConfirmsTheAddressOnce() async throws {
        let smtp = try SMTPServer()
        try await TestServer.with(mailing(to: smtp)) { server in
            let ana = try await server.signUp("ana")
            #expect(try await server.graphql(Self.verified, token: ana.token)["data"]["me"]["emailVerified"].bool == false)
            let received = try await smtp.waitForMessages(1)
            #expect(received.count == 1)
            #expect(received.first?.sender == "hello@huddle.example")
            #expect(received.first?.recipients == ["ana@example.com"])
            let mail = try await ParsedMail(try #require(received.first))
            #expect(mail.subject == "Confirm your email address")
            #expect(mail.text.hasPrefix("Hello ana,\n"), "\(mail.text)")
            let link = try #require(mail.link, "\(mail.text)")
            #expect(link.hasPrefix("http://localhost:\(server.port)/account/verify-email?token="))
            #expect(mail.html.contains("href=\"\(link)\""))
            // The token is kept only hashed, and nowhere in the outbox.
            let token = try #require(mail.token)
            #expect(
                try await server.sql(
                    "SELECT count(*)::int FROM account_tokens WHERE token_hash = $1", [Digest.sha256Hex(Array(token.utf8))])[0].decode(
                        Int.self, at: 0) == 1)
            #expect(
                try await server.sql("SELECT count(*)::int FROM email_outbox WHERE parameters::text LIKE '%' || $1 || '%'", [token])[0]
                    .decode(Int.self, at: 0) == 0)
            #expect(try await server.sql("SELECT state FROM email_outbox")[0].decode(String.self, at: 0) == "sent")

            let confirmed = try await follow(link)
            #expect(confirmed.status == 200, "\(confirmed.page)")
            #expect(confirmed.page.contains("Your address is confirmed."))
            #expect(try await server.graphql(Self.verified, token: ana.token)["data"]["me"]["emailVerified"].bool == true)
            let again = try await follow(link)
            #expect(again.status == 400)
            #expect(again.page.contains("This link has expired or has been used already"))
            let overGraphQL = try await server.graphql("mutation($t: String!) { verifyEmail(token: $t) { id } }", ["t": token])
            #expect(overGraphQL.errorCode == "BAD_USER_INPUT", "\(overGraphQL)")
            // Confirmed: nothing more to send.
            let resend = try await server.graphql("mutation { resendVerificationEmail }", token: ana.token)
            #expect(resend["data"]["resendVerificationEmail"].bool == false, "\(resend)")
            // Someone else sees neither the address nor whether it is confirmed.
            let bo = try await server.signUp("bob")
            let seen = try await server.graphql(
                "query($id: ID!) { user(id: $id) { email emailVerified } }", ["id": ana.id], token: bo.token)
            #expect(seen["data"]["user"]["emailVerified"].isNull && seen["data"]["user"]["email"].isNull, "\(seen)")
        }
    }

    /// Re-sending is limited per account and hour (the setting's value is
    /// allowed, one more is RATE_LIMITED); the sign-up's message counts.
    @Test func resendingTheLinkIsLimitedPerHour() async throws {
        let smtp = try SMTPServer()
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.start(databaseURL: url, settings: ["account-mail-per-hour=3"], mailing(to: smtp))
            defer { server.stop() }
            let ana = try await server.signUp("ana")
            for _ in 0..<2 {
                let resend = try await server.graphql("mutation { resendVerificationEmail }", token: ana.token)
                #expect(resend["data"]["resendVerificationEmail"].bool == true, "\(resend)")
            }
            let over = try await server.graphql("mutation { resendVerificationEmail }", token: ana.token)
            #expect(over.errorCode == "RATE_LIMITED", "\(over)")
            #expect(try await smtp.waitForMessages(3).count == 3)
            // Each link works, once: the newest as well as the first.
            let links = try await smtp.received().asyncMap { try await ParsedMail($0).link }
            #expect(Set(links).count == 3)
            #expect(try await follow(try #require(links.last ?? nil)).status == 200)
            let anonymous = try await server.graphql("mutation { resendVerificationEmail }")
            #expect(anonymous.errorCode == "UNAUTHENTICATED")
        }
    }

    @Test func aForgottenPasswordIsResetByALinkThatSignsOutEveryDevice() async throws {
        let smtp = try SMTPServer()
        try await TestServer.with(mailing(to: smtp)) { server in
            let ana = try await server.signUp("ana", password: "old password one")
            _ = try await smtp.waitForMessages(1)
            let ask = "mutation($e: String!) { requestPasswordReset(email: $e) }"
            // The same answer whether or not an account has the address.
            let known = try await server.graphql(ask, ["e": "ANA@example.com"])
            let unknown = try await server.graphql(ask, ["e": "nobody@example.com"])
            #expect(known == unknown)
            #expect(known["data"]["requestPasswordReset"].bool == true)
            #expect(try await server.graphql(ask, ["e": "not an address"]).errorCode == "BAD_USER_INPUT")
            let received = try await smtp.waitForMessages(2)
            #expect(received.count == 2)
            let mail = try await ParsedMail(received[1])
            #expect(mail.to == "ana@example.com")
            #expect(mail.subject == "Choose a new password")
            let link = try #require(mail.link)
            #expect(link.contains("/account/reset-password?token="))

            let tooShort = try await follow(link, fields: ["password": "short"])
            #expect(tooShort.status == 400, "\(tooShort.page)")
            #expect(tooShort.page.contains("<input type=\"password\""), "the form again")
            let reset = try await follow(link, fields: ["password": "brand new password"])
            #expect(reset.status == 200, "\(reset.page)")
            #expect(reset.page.contains("Your password is changed."))
            // Every device signed out; the new password works, the old does not; the link is used up.
            #expect(try await server.graphql("{ me { id } }", token: ana.token)["data"]["me"].isNull)
            let logIn = "mutation($u: String!, $p: String!) { logIn(username: $u, password: $p) { token } }"
            #expect(try await server.graphql(logIn, ["u": "ana", "p": "old password one"]).errorCode == "UNAUTHENTICATED")
            let signedIn = try await server.graphql(logIn, ["u": "ana", "p": "brand new password"])
            let token = try #require(signedIn["data"]["logIn"]["token"].string, "\(signedIn)")
            // The link reached the address: it counts as confirmed.
            #expect(try await server.graphql(Self.verified, token: token)["data"]["me"]["emailVerified"].bool == true)
            #expect(try await follow(link, fields: ["password": "another new one"]).status == 400)
            let overGraphQL = try await server.graphql(
                "mutation($t: String!, $p: String!) { resetPassword(token: $t, newPassword: $p) }",
                ["t": mail.token ?? "", "p": "another new one"])
            #expect(overGraphQL.errorCode == "BAD_USER_INPUT", "\(overGraphQL)")
        }
    }

    /// Asking for resets many times sends at most the hour's number, and
    /// the answer never changes.
    @Test func resetRequestsPastTheHourlyLimitSendNothingAndSayNothing() async throws {
        let smtp = try SMTPServer()
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.start(databaseURL: url, settings: ["account-mail-per-hour=2"], mailing(to: smtp))
            defer { server.stop() }
            _ = try await server.signUp("ana")
            for _ in 0..<4 {
                let reply = try await server.graphql("mutation { requestPasswordReset(email: \"ana@example.com\") }")
                #expect(reply["data"]["requestPasswordReset"].bool == true, "\(reply)")
            }
            _ = try await smtp.waitForMessages(3)
            try await Task.sleep(for: .milliseconds(500))
            let subjects = try await smtp.received().asyncMap { try await ParsedMail($0).subject }
            #expect(subjects.filter { $0 == "Choose a new password" }.count == 2, "\(subjects)")
        }
    }

    @Test func anAddressChangeIsConfirmedAtTheNewAddressAndToldToTheOld() async throws {
        let smtp = try SMTPServer()
        try await TestServer.with(mailing(to: smtp)) { server in
            let ana = try await server.signUp("ana")
            _ = try await server.signUp("bob")
            _ = try await smtp.waitForMessages(2)
            let change = "mutation($p: String!, $e: String!) { changeEmail(currentPassword: $p, newEmail: $e) }"
            #expect(
                try await server.graphql(change, ["p": "wrong", "e": "ana@new.example"], token: ana.token).errorMessage
                    == "The current password is not right.")
            #expect(
                try await server.graphql(change, ["p": "correct horse battery", "e": "BOB@example.com"], token: ana.token).errorMessage
                    == "An account with that email exists already.")
            #expect(
                try await server.graphql(change, ["p": "correct horse battery", "e": "ana@new.example"]).errorCode == "UNAUTHENTICATED")
            let asked = try await server.graphql(change, ["p": "correct horse battery", "e": "ana@new.example"], token: ana.token)
            #expect(asked["data"]["changeEmail"].bool == true, "\(asked)")
            let confirmation = try await ParsedMail(try #require(try await smtp.waitForMessages(3).last))
            #expect(confirmation.to == "ana@new.example")
            #expect(confirmation.subject == "Confirm your new email address")
            // Until the link is followed, nothing changes.
            #expect(try await server.graphql(Self.verified, token: ana.token)["data"]["me"]["email"].string == "ana@example.com")
            let confirmed = try await server.graphql(
                "mutation($t: String!) { confirmEmailChange(token: $t) { email emailVerified } }", ["t": confirmation.token ?? ""])
            #expect(confirmed["data"]["confirmEmailChange"]["email"].string == "ana@new.example", "\(confirmed)")
            #expect(confirmed["data"]["confirmEmailChange"]["emailVerified"].bool == true)
            let notice = try await ParsedMail(try #require(try await smtp.waitForMessages(4).last))
            #expect(notice.to == "ana@example.com")
            #expect(notice.subject == "Your email address was changed")
            #expect(notice.text.contains("ana@new.example") && notice.link == nil)
            // A verification link sent to the old address no longer confirms anything.
            let first = try await ParsedMail(try #require(smtp.received().first { $0.recipients == ["ana@example.com"] }))
            let stale = try await follow(try #require(first.link))
            #expect(stale.status == 400 && stale.page.contains("no longer has"), "\(stale.page)")
        }
    }

    /// A new password shuts out whoever had the old one: an address change
    /// they started no longer goes through, and its mail still waiting is given up.
    @Test func aNewPasswordEndsTheLinksSomeoneElseMayHaveStarted() async throws {
        let smtp = try SMTPServer()
        try await TestServer.with(mailing(to: smtp)) { server in
            let ana = try await server.signUp("ana")
            _ = try await smtp.waitForMessages(1)
            let stolen = try await server.graphql(
                "mutation { changeEmail(currentPassword: \"correct horse battery\", newEmail: \"thief@example.com\") }", token: ana.token)
            #expect(stolen["data"]["changeEmail"].bool == true, "\(stolen)")
            let change = try await ParsedMail(try #require(try await smtp.waitForMessages(2).last))
            #expect(change.to == "thief@example.com")
            _ = try await server.graphql("mutation { requestPasswordReset(email: \"ana@example.com\") }")
            let reset = try await ParsedMail(try #require(try await smtp.waitForMessages(3).last))
            #expect(try await follow(try #require(reset.link), fields: ["password": "a fresh password"]).status == 200)
            let confirmed = try await server.graphql(
                "mutation($t: String!) { confirmEmailChange(token: $t) { email } }", ["t": change.token ?? ""])
            #expect(confirmed.errorCode == "BAD_USER_INPUT", "\(confirmed)")
            #expect(try await server.sql("SELECT email FROM users")[0].decode(String.self, at: 0) == "ana@example.com")
        }
    }

    /// An address SMTP cannot carry (not ASCII) still signs up; its mail is
    /// given up as dead, not the account.
    @Test func anAddressSMTPCannotCarrySignsUpAndItsMailIsGivenUp() async throws {
        let smtp = try SMTPServer()
        try await TestServer.with(mailing(to: smtp)) { server in
            let reply = try await server.graphql(
                "mutation { signUp(username: \"joe\", email: \"jöe@example.com\", password: \"correct horse battery\") { token } }")
            #expect(reply["data"]["signUp"]["token"].string != nil, "\(reply)")
            var state = ""
            for _ in 0..<600 where state != "dead" {
                try await Task.sleep(for: .milliseconds(50))
                state = try await server.sql("SELECT state FROM email_outbox")[0].decode(String.self, at: 0)
            }
            #expect(state == "dead")
            #expect(smtp.received().isEmpty)
        }
    }
}

extension Array where Element: Sendable {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
