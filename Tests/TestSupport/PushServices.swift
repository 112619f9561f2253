import Foundation

/// Stand-ins for Web Push, APNs, FCM and a webhook receiver, each checking
/// what arrives with an independent implementation of its protocol
/// (Tests/clients/push_services.py: py_vapid and http_ece, PyJWT, standardwebhooks)
/// over HTTPS with HTTP/2, on one port.
package final class PushServices: Sendable {
    package let port: Int
    /// The certificate the services present, to trust.
    package let certificate: String
    /// The APNs signing key (a .p8 file) whose public half the stand-in checks tokens with.
    package let apnsKey: String
    /// The FCM service account's JSON key file, its token_uri the stand-in's.
    package let fcmServiceAccount: String
    /// The secret the webhook receiver verifies signatures with.
    package let webhookSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    private let folder: ScratchDirectory
    private let process: Subprocess

    package init() throws {
        folder = try ScratchDirectory("huddle-push")
        let started = try startPythonService("push_services.py", [folder.url.path, "--webhook-secret", webhookSecret])
        process = started.process
        let line = Data(started.firstLine.utf8)
        guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any], let port = object["port"] as? Int,
            let certificate = object["cert"] as? String, let apnsKey = object["apnsKey"] as? String,
            let fcmServiceAccount = object["fcmAccount"] as? String
        else {
            process.killAndWait()
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
        self.certificate = certificate
        self.apnsKey = apnsKey
        self.fcmServiceAccount = fcmServiceAccount
    }

    deinit {
        process.killAndWait()
    }

    package var url: String { "https://127.0.0.1:\(port)" }

    /// A new Web Push subscription, as a browser's `PushSubscription.toJSON()`
    /// would give it; with `gone`, the service answers 410 to it; with
    /// `slow`, it answers its first push half a minute after it arrived.
    package func subscribe(gone: Bool = false, slow: Bool = false) throws -> (endpoint: String, p256dh: String, auth: String) {
        let options = gone ? #"{"gone":true}"# : slow ? #"{"slow":true}"# : "{}"
        let answer = try curl(["--cacert", certificate, "\(url)/webpush/subscribe", "-d", options]).output
        let object = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: String] ?? [:]
        return (object["endpoint"] ?? "", object["p256dh"] ?? "", object["auth"] ?? "")
    }

    /// What arrived so far, as the stand-ins recorded it (checked and decrypted).
    package func received() throws -> [[String: Any]] {
        let answer = try curl(["--cacert", certificate, "\(url)/received"]).output
        return try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [[String: Any]] ?? []
    }

    /// Waits (up to a minute) until `count` records of `service` have come; those.
    package func waitFor(_ count: Int, of service: String) async throws -> [[String: Any]] {
        var matching: [[String: Any]] = []
        for _ in 0..<600 {
            matching = try received().filter { $0["service"] as? String == service }
            if matching.count >= count { return matching }
            try await Task.sleep(for: .milliseconds(100))
        }
        return matching
    }
}
