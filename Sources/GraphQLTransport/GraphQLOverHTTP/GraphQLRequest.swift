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
        guard let pairs = FormURLEncoded.pairs(queryString) else {
            return .failure(.badRequest("The query string is not valid percent-encoded UTF-8."))
        }
        for (name, value) in pairs {
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
