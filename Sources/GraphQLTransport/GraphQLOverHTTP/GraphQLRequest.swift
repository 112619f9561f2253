import GraphQL
import HuddleRuntime

/// The parameters of a GraphQL-over-HTTP request (graphql-over-http §
/// "Request Parameters"), from a JSON body or a URL's query string.
public struct GraphQLRequest: Sendable {
    public var query: String?
    /// A trusted document's id (`sha256:<hex>`), sent instead of `query`.
    public var documentId: String?
    public var operationName: String?
    public var variables: [GraphQLValue.Member] = []
    public var extensions: [GraphQLValue.Member] = []

    /// Apollo's `extensions.persistedQuery`, when sent.
    var persistedQuery: GraphQLValue? { extensions.first { $0.name == "persistedQuery" }?.value }

    /// Whether the request names its document: by text, by a trusted
    /// document's id, or by a persisted query's hash.
    var namesADocument: Bool { query != nil || documentId != nil || persistedQuery != nil }

    public init(query: String?, operationName: String? = nil) {
        self.query = query
        self.operationName = operationName
    }

    /// From one JSON object; a parameter of the wrong type is a 400.
    static func from(json: GraphQLValue) -> Result<GraphQLRequest, GraphQLOverHTTPFailure> {
        guard case .object(let members) = json else {
            return .failure(.badRequest("The request body must be a JSON object or an array of them."))
        }
        var request = GraphQLRequest(query: nil)
        for member in members {
            switch (member.name, member.value) {
            case ("query", .string(let query)): request.query = query
            case ("query", .null): break
            case ("query", _): return .failure(.badRequest("The \"query\" parameter must be a string."))
            case ("documentId", .string(let id)): request.documentId = id
            case ("documentId", .null): break
            case ("documentId", _): return .failure(.badRequest("The \"documentId\" parameter must be a string."))
            case ("operationName", .string(let name)): request.operationName = name
            case ("operationName", .null): break
            case ("operationName", _): return .failure(.badRequest("The \"operationName\" parameter must be a string."))
            case ("variables", .object(let variables)): request.variables = variables
            case ("variables", .null): break
            case ("variables", _): return .failure(.badRequest("The \"variables\" parameter must be an object."))
            case ("extensions", .object(let extensions)): request.extensions = extensions
            case ("extensions", .null): break
            case ("extensions", _): return .failure(.badRequest("The \"extensions\" parameter must be an object."))
            default: break
            }
        }
        return .success(request)
    }

    /// From `?query=...&operationName=...&variables=<JSON>&extensions=<JSON>`.
    static func from(queryString: Substring, reader: JSONReader) -> Result<GraphQLRequest, GraphQLOverHTTPFailure> {
        var members: [GraphQLValue.Member] = []
        for pair in queryString.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = percentDecoded(parts[0]), let value = percentDecoded(parts.count > 1 ? parts[1] : "") else {
                return .failure(.badRequest("The query string is not valid percent-encoded UTF-8."))
            }
            switch name {
            case "query", "operationName", "documentId":
                members.append(.init(name, .string(value)))
            case "variables", "extensions":
                do {
                    members.append(.init(name, try reader.read(value)))
                } catch {
                    return .failure(.badRequest("The \"\(name)\" parameter is not valid JSON: \(error)."))
                }
            default:
                continue
            }
        }
        return from(json: .object(members))
    }

    /// application/x-www-form-urlencoded decoding: `+` is a space.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(0x20)
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x37
        case 0x61...0x66: byte - 0x57
        default: nil
        }
    }
}

/// A request refused before any GraphQL work: its status and message.
struct GraphQLOverHTTPFailure: Error {
    var status: Int
    var message: String
    var headers: [(name: String, value: String)] = []
    var code: String? = "BAD_REQUEST"
    var extensions: [GraphQLValue.Member] = []

    static func badRequest(_ message: String) -> GraphQLOverHTTPFailure {
        GraphQLOverHTTPFailure(status: 400, message: message)
    }

    static func unavailable(_ reason: ServiceUnavailable) -> GraphQLOverHTTPFailure {
        GraphQLOverHTTPFailure(
            status: 503, message: reason.message, headers: [("Retry-After", String(reason.retryAfter))],
            code: "SERVICE_UNAVAILABLE", extensions: [.init("retryAfter", .int(reason.retryAfter))]
        )
    }
}
