import GraphQL
import HuddleRuntime

/// A signed JSON Web Token in compact form (RFC 7519): what VAPID, APNs'
/// provider tokens and Google's OAuth2 assertions all are. ES256 for a
/// P-256 key, RS256 for an RSA one.
enum JSONWebToken {
    /// `claims` signed by `key`, with `header`'s members (`kid`) after `typ` and `alg`.
    static func sign(_ claims: [GraphQLValue.Member], header: [GraphQLValue.Member] = [], key: PrivateKey) -> String {
        let algorithm = key.isRSA ? "RS256" : "ES256"
        let head = GraphQLValue.object([.init("typ", .string("JWT")), .init("alg", .string(algorithm))] + header)
        let signingInput = Base64URL.encode(Array(head.json.utf8)) + "." + Base64URL.encode(Array(GraphQLValue.object(claims).json.utf8))
        return signingInput + "." + Base64URL.encode(key.signSHA256(Array(signingInput.utf8)))
    }
}
