import Foundation
import HuddleCore
import HuddlePush
import HuddleRuntime
import HuddleServer
import TestSupport

/// A server configuration that pushes through `services`: Web Push with a
/// VAPID key of the test's own, APNs with the stand-in's key, FCM with its
/// service account, and every notice to its webhook receiver.
package func pushing(
    to services: PushServices, _ change: @escaping @Sendable (inout NoticeDelivery.Settings) -> Void = { _ in }
) -> @Sendable (inout HuddleServer.Configuration) -> Void {
    let vapid = VAPID(key: .generateP256(), subject: "mailto:push@huddle.example")
    let apnsKey = try! PrivateKey(pem: try! String(contentsOfFile: services.apnsKey, encoding: .utf8))
    let account = try! FCMServiceAccount(json: try! String(contentsOfFile: services.fcmServiceAccount, encoding: .utf8))
    let url = services.url, certificate = services.certificate, secret = services.webhookSecret
    return { configuration in
        var settings = NoticeDelivery.Settings(vapid: vapid)
        settings.client.certificateAuthorities = certificate
        settings.client.allowsPrivateNetworks = true
        var apns = APNsSender.Settings(key: apnsKey, keyID: "TESTKEY123", teamID: "TEAM123456")
        apns.productionURL = url
        apns.developmentURL = url
        settings.apns = apns
        settings.fcm = account
        settings.fcmURL = url
        settings.webhookURL = "\(url)/webhook"
        settings.webhookSecret = secret
        settings.backoff.first = .milliseconds(200)
        change(&settings)
        configuration.push = settings
    }
}

/// The mutation that registers a device, and its fields.
package let registerPushEndpoint = "mutation($input: PushEndpointInput!) { registerPushEndpoint(input: $input) { id platform label } }"
