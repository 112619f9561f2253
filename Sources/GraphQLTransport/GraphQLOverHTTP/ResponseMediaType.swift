import HuddleRuntime

/// The media types a GraphQL response can be sent as (graphql-over-http
/// § "Accept"), chosen from the request's Accept header.
public enum ResponseMediaType: Sendable, Equatable {
    /// `application/graphql-response+json`: statuses say whether the
    /// request was valid (400 for parse and validation errors).
    case graphQLResponseJSON
    /// `application/json`, the legacy type: 200 for any well-formed request.
    case json

    var contentType: String {
        switch self {
        case .graphQLResponseJSON: "application/graphql-response+json; charset=utf-8"
        case .json: "application/json; charset=utf-8"
        }
    }

    /// The most preferred type the client accepts (by q-value, ties to
    /// graphql-response+json), application/json without an Accept header
    /// or for a wildcard, nil when it accepts neither.
    static func negotiate(accept: String?) -> ResponseMediaType? {
        // No Accept, and `*/*`, get application/json: the spec's SHOULD for
        // the legacy clients that send them.
        guard let accept, !accept.allSatisfy({ $0 == " " || $0 == "\t" }) else { return .json }
        var best: (type: ResponseMediaType, quality: Double)?
        func consider(_ type: ResponseMediaType, _ quality: Double) {
            guard quality > 0 else { return }
            if let current = best, current.quality > quality || (current.quality == quality && current.type == .graphQLResponseJSON) {
                return
            }
            best = (type, quality)
        }
        for range in accept.split(separator: ",") {
            let parameters = range.split(separator: ";").map { $0.trimmingSpaces().lowercased() }
            guard let mediaRange = parameters.first else { continue }
            var quality = 1.0
            var charsetAcceptable = true
            for parameter in parameters.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces() }
                guard pair.count == 2 else { continue }
                if pair[0] == "q" { quality = Double(pair[1]) ?? 0 }
                if pair[0] == "charset" { charsetAcceptable = pair[1] == "utf-8" || pair[1] == "\"utf-8\"" }
            }
            guard charsetAcceptable else { continue }
            switch mediaRange {
            case "application/graphql-response+json": consider(.graphQLResponseJSON, quality)
            case "application/json": consider(.json, quality)
            case "application/*", "*/*":
                consider(.json, quality)
            case "multipart/mixed":
                // A client reading incremental results takes a result that
                // is not incremental as JSON.
                consider(.json, quality / 2)
            default: continue
            }
        }
        return best?.type
    }

    /// Whether the client reads incremental results as `multipart/mixed`
    /// (whatever its parameters: `deferSpec`, `incrementalSpec`).
    static func acceptsMultipart(accept: String?) -> Bool {
        guard let accept else { return false }
        for range in accept.split(separator: ",") {
            let parameters = range.split(separator: ";").map { $0.trimmingSpaces().lowercased() }
            guard parameters.first == "multipart/mixed" else { continue }
            let quality = parameters.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if quality > 0 { return true }
        }
        return false
    }
}
