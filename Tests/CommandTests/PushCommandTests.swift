import Foundation
import TestSupport
import Testing

/// `huddle push`: the VAPID key made once and kept (readable by its owner
/// only), its public half printed as browsers take it; webhook secrets.
struct PushCommandTests {
    @Test func theVAPIDKeyIsMadeOnceAndItsPublicHalfPrinted() throws {
        let folder = try ScratchDirectory("huddle-vapid")
        let file = folder.path("keys/vapid.pem")
        let first = try HuddleCommand.run(["push", "keys", "--vapid-key", file])
        #expect(first.status == 0, "\(first.standardError)")
        let key = first.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        // base64url of an uncompressed P-256 point: 65 bytes, 87 characters, starting "B" (0x04).
        #expect(key.count == 87 && key.hasPrefix("B") && !key.contains("=") && !key.contains("+"), "\(key)")
        let again = try HuddleCommand.run(["push", "keys"], environment: ["HUDDLE_VAPID_KEY": file])
        #expect(again.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == key)
        let permissions = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(permissions == 0o600)

        // A file that is not a key is an error, not a new key over it.
        try Data("not a key".utf8).write(to: URL(fileURLWithPath: folder.path("broken.pem")))
        let broken = try HuddleCommand.run(["push", "keys", "--vapid-key", folder.path("broken.pem")])
        #expect(broken.status != 0 && broken.standardError.contains("broken.pem"), "\(broken.standardError)")
        #expect(try String(contentsOfFile: folder.path("broken.pem"), encoding: .utf8) == "not a key")
    }

    @Test func aWebhookSecretIsStandardWebhooksForm() throws {
        let made = try HuddleCommand.run(["push", "webhook-secret"])
        let secret = made.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(secret.hasPrefix("whsec_") && Data(base64Encoded: String(secret.dropFirst(6)))?.count == 32, "\(secret)")
        #expect(try HuddleCommand.run(["push", "webhook-secret"]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) != secret)
    }
}
