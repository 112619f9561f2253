import Foundation
import HuddleMail
import TestSupport
import Testing

/// Messages as Python's own email parser (strict policy) reads them: every
/// header and part decodes to what was written, with no defect, CRLF line
/// ends only and no line longer than RFC 5322 asks.
@Suite struct MailMessageTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var fromName: String?
        var subject: String
        var text: String
        var html: String?
        var unsubscribe: String?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "ASCII", fromName: "Huddle", subject: "Confirm your address", text: "Hello,\n\nFollow the link.\n"),
        Case(
            name: "not ASCII", fromName: "Zoë Ångström 🐾",
            subject: "Bienvenue chez Huddle, Zoë — votre compte est prêt 🎉 " + String(repeating: "é", count: 60),
            text: "Grüße aus Köln — 🐶🐱\n", html: "<p>Grüße aus <b>Köln</b> — 🐶🐱</p>\n"),
        Case(
            name: "quoted-printable's edges", fromName: "A \"quoted\" name, with specials",
            subject: "=?UTF-8?B?bm90IGEgd29yZA==?= stays text",
            text: "trailing spaces   \nand a tab\t\n= signs = and =3D\n.a line starting with a dot\n"
                + String(repeating: "long ", count: 60)
                + "\n" + String(repeating: "x", count: 200) + "\r\nold Mac line\rend",
            unsubscribe: "https://huddle.example/unsubscribe?t=abc"),
        Case(
            name: "a long unbroken word in an HTML part", fromName: nil, subject: String(repeating: "word ", count: 40),
            text: "short", html: "<a href=\"https://example.com/" + String(repeating: "a", count: 300) + "\">link</a>",
            unsubscribe: "mailto:unsubscribe@huddle.example"),
    ]

    func parsed(_ message: MailMessage) async throws -> [String: Any] {
        let scratch = try ScratchDirectory("huddle-mail")
        let path = scratch.path("message.eml")
        try Data(message.rendered()).write(to: URL(fileURLWithPath: path))
        let outcome = try await ClientProcess.python("parse_email.py", [path]).finished()
        #expect(outcome.status == 0, "\(outcome.errors)")
        return try #require(try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
    }

    @Test(arguments: cases) func pythonsParserReadsBackWhatWasWritten(_ example: Case) async throws {
        let from = try #require(MailAddress("hello@huddle.example", displayName: example.fromName))
        let to = try #require(MailAddress("zoë.reader@example.com".replacingOccurrences(of: "ë", with: "e")))
        let message = MailMessage(
            from: from, to: to, subject: example.subject, text: example.text, html: example.html, unsubscribe: example.unsubscribe,
            messageID: MailMessage.messageID(for: 42, from: from, random: "abc123"), date: Date(timeIntervalSince1970: 1_795_000_000))
        let parsed = try await parsed(message)
        #expect(parsed["defects"] as? [String] == [], "\(parsed)")
        #expect(parsed["bareLineFeeds"] as? Int == 0)
        #expect((parsed["longestLine"] as? Int ?? 999) <= 78, "\(parsed)")
        #expect(parsed["subject"] as? String == example.subject)
        #expect(parsed["fromName"] as? String == (example.fromName ?? ""))
        #expect(parsed["fromAddress"] as? String == "hello@huddle.example")
        #expect(parsed["to"] as? String == "zoe.reader@example.com")
        #expect(parsed["messageID"] as? String == "<huddle.42.abc123@huddle.example>")
        #expect(parsed["date"] as? String == "Wed, 18 Nov 2026 11:06:40 +0000")
        func normalised(_ text: String) -> String {
            let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            return lines.hasSuffix("\n") ? lines : lines + "\n"
        }
        // Python gives the parts' line ends as sent: CRLF.
        let parts = (parsed["parts"] as? [[String: Any]] ?? []).map { part in
            part.merging(["content": (part["content"] as? String ?? "").replacingOccurrences(of: "\r\n", with: "\n")]) { $1 }
        }
        #expect(parts.map { $0["type"] as? String } == (example.html == nil ? ["text/plain"] : ["text/plain", "text/html"]))
        #expect(parts.first?["content"] as? String == normalised(example.text), "\(parts)")
        #expect(parts.allSatisfy { $0["charset"] as? String == "utf-8" && $0["encoding"] as? String == "quoted-printable" })
        if let html = example.html { #expect(parts.last?["content"] as? String == normalised(html)) }
        #expect(parsed["type"] as? String == (example.html == nil ? "text/plain" : "multipart/alternative"))
        #expect(parsed["listUnsubscribe"] as? String == example.unsubscribe.map { "<\($0)>" })
        #expect(
            parsed["listUnsubscribePost"] as? String
                == (example.unsubscribe?.hasPrefix("https://") == true ? "List-Unsubscribe=One-Click" : nil))
    }

    @Test func addressesSMTPCannotCarryAreRefused() {
        for bad in [
            "", "a@", "@b", "a b@c.d", "a@b@c", "<a@b.c>", "ä@b.c", "a@b.c\r\nBcc: x@y.z", String(repeating: "a", count: 250) + "@b.cd",
        ] {
            #expect(MailAddress(bad) == nil, "\(bad)")
        }
        #expect(MailAddress(parsing: "Huddle <hello@huddle.example>") == MailAddress("hello@huddle.example", displayName: "Huddle"))
        #expect(MailAddress(parsing: "\"Huddle, Inc.\" <a@b.c>")?.displayName == "Huddle, Inc.")
        #expect(MailAddress(parsing: "a@b.c") == MailAddress("a@b.c"))
    }
}
