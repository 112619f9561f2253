import Foundation
import GraphQL
import HuddleRuntime
import Synchronization

/// A Google service account, from the JSON key file Firebase's console gives.
public struct FCMServiceAccount: Sendable {
    public var projectID: String
    public var clientEmail: String
    public var key: PrivateKey
    /// Where access tokens are had (`https://oauth2.googleapis.com/token`).
    public var tokenURI: String

    public struct Invalid: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads the key file's JSON.
    public init(json: String) throws(Invalid) {
        guard let object = try? JSONReader().read(json), case .object = object else { throw Invalid(description: "not a JSON object") }
        func string(_ name: String) throws(Invalid) -> String {
            guard case .string(let value)? = object[name], !value.isEmpty else {
                throw Invalid(description: "the service account has no \(name)")
            }
            return value
        }
        projectID = try string("project_id")
        clientEmail = try string("client_email")
        tokenURI = try string("token_uri")
        do {
            key = try PrivateKey(pem: try string("private_key"))
        } catch {
            throw Invalid(description: "the service account's private_key: \(error)")
        }
        guard key.isRSA else { throw Invalid(description: "the service account's private_key is not an RSA key") }
    }
}

/// Firebase Cloud Messaging's HTTP v1 API. Access tokens come from the
/// OAuth2 JWT-bearer exchange (RFC 7523) with the service account's
/// signed assertion, and are reused until a few minutes before they expire.
public final class FCMSender: Sendable {
    public let client: HTTPClient
    public let account: FCMServiceAccount
    /// `https://fcm.googleapis.com`; another for a stand-in.
    public let apiURL: String
    private let accessToken = Mutex<(token: String, expires: Date)?>(nil)

    static let scope = "https://www.googleapis.com/auth/firebase.messaging"

    public init(client: HTTPClient, account: FCMServiceAccount, apiURL: String = "https://fcm.googleapis.com") {
        self.client = client
        self.account = account
        self.apiURL = apiURL.hasSuffix("/") ? String(apiURL.dropLast()) : apiURL
    }

    /// Sends `message` (the v1 API's `message` object, without `token`) to the registration `token`.
    public func send(_ message: [GraphQLValue.Member], to token: String) async -> PushOutcome {
        let bearer: String
        switch await currentAccessToken() {
        case .token(let token): bearer = token
        case .unavailable(let outcome): return outcome
        }
        let body = GraphQLValue.object([.init("message", .object([.init("token", .string(token))] + message))]).json
        let request = HTTPClient.Request(
            url: "\(apiURL)/v1/projects/\(account.projectID)/messages:send",
            headers: [("Authorization", "Bearer \(bearer)"), ("Content-Type", "application/json")], body: Array(body.utf8), isTrusted: true)
        switch await client.send(request) {
        case .success(let response):
            if response.status == 401 {
                // The access token expired or was revoked early: another is had for the next attempt.
                accessToken.withLock { $0 = nil }
                return .retry("FCM 401: the access token was refused", after: nil)
            }
            // FCM says UNREGISTERED (404) for a token that is gone, and
            // INVALID_ARGUMENT (400) for one that never was.
            let text = String(decoding: response.body, as: UTF8.self)
            if response.status == 400 && text.contains("registration token is not a valid FCM registration token") {
                return .gone("FCM 400: not a valid registration token")
            }
            return .of(status: response.status, headers: response.headers, body: response.body)
        case .failure(let failure):
            return .of(failure)
        }
    }

    private enum AccessToken {
        case token(String)
        case unavailable(PushOutcome)
    }

    private func currentAccessToken(now: Date = Date()) async -> AccessToken {
        if let cached = accessToken.withLock({ $0 }), cached.expires > now.addingTimeInterval(300) { return .token(cached.token) }
        let issued = Int(now.timeIntervalSince1970)
        let assertion = JSONWebToken.sign(
            [
                .init("iss", .string(account.clientEmail)), .init("scope", .string(Self.scope)), .init("aud", .string(account.tokenURI)),
                .init("iat", .int(issued)), .init("exp", .int(issued + 3600)),
            ], key: account.key)
        let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"
        let request = HTTPClient.Request(
            url: account.tokenURI, headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array(form.utf8), isTrusted: true
        )
        switch await client.send(request) {
        case .success(let response) where response.status == 200:
            let answer = try? JSONReader().read(String(decoding: response.body, as: UTF8.self))
            guard case .string(let token)? = answer?["access_token"] else {
                return .unavailable(.retry("the OAuth2 token response has no access_token", after: nil))
            }
            var lifetime = 3600
            if case .int(let seconds)? = answer?["expires_in"] { lifetime = seconds }
            accessToken.withLock { $0 = (token, now.addingTimeInterval(TimeInterval(lifetime))) }
            return .token(token)
        case .success(let response):
            // A refused assertion is the operator's to fix; messages wait for it.
            return .unavailable(.retry("the OAuth2 token exchange answered \(response.status)", after: nil))
        case .failure(let failure):
            return .unavailable(.retry("the OAuth2 token exchange failed: \(failure)", after: nil))
        }
    }
}
