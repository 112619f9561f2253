import ArgumentParser
import Foundation
import HuddlePush

/// `huddle push`: what an operator needs to set push up.
struct PushCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push", abstract: "Push notifications: the VAPID key clients subscribe with, a webhook secret.",
        subcommands: [Keys.self, WebhookSecret.self])

    struct Keys: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Prints the VAPID public key browsers subscribe with (applicationServerKey), making the key pair first if missing.")

        @Option(
            name: .customLong("vapid-key"),
            help: "The VAPID private key (PEM) (HUDDLE_VAPID_KEY; default: .huddle/push/vapid.pem, as huddle serve uses).")
        var vapidKey: String?

        func run() throws {
            var options = try PushOptions.parse([])
            options.vapidKeyOption = vapidKey
            guard let file = options.vapidKeyFile else {
                throw ValidationError("outside a checkout, name the key's file: --vapid-key FILE (made there if missing)")
            }
            let key = try PushOptions.vapidKey(at: file)
            print(VAPID(key: key, subject: "mailto:huddle@localhost").publicKey)
        }
    }

    struct WebhookSecret: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "webhook-secret", abstract: "Prints a new webhook signing secret for --webhook-secret and the receiving service.")

        func run() {
            print(WebhookSender.makeSecret())
        }
    }
}
