import GraphQL
import HuddleRuntime

/// The in-browser IDE: its page and files under `/playground`, its language
/// service at `POST /playground/language-service`, and `GET /graphql` from
/// a browser (`Accept: text/html`) sent to the page with its query string.
public final class Playground: Sendable {
    public struct Configuration: Sendable {
        /// Where the page is served; its files and the language service are below it.
        public var path = "/playground"
        /// The GraphQL endpoint a browser is sent here from.
        public var graphQLPath = "/graphql"
        /// The largest document the language service reads, in UTF-8 bytes:
        /// far more than anyone writes by hand, and small enough that its
        /// JSON request stays within the HTTP server's 1 MiB body limit.
        public var maxTextBytes = 256 << 10
        /// Whether diagnostics leave out "Did you mean" suggestions, as the API's errors do.
        public var hidesSuggestions = false

        public init() {}
    }

    /// What the page may load and where it may connect: only its own files
    /// and this server (HTTP and WebSocket), nothing inline, no frames.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
        + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    public let configuration: Configuration
    private let assets: PlaygroundAssets
    private let service: LanguageService

    /// `path + "/"`, made once: every request to the API passes through `respond`.
    private let folder: String

    public init(schema: GraphQLSchema, assets: PlaygroundAssets, configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.assets = assets
        folder = configuration.path + "/"
        service = LanguageService(schema: schema, hidesSuggestions: configuration.hidesSuggestions)
    }

    /// The response for one of the Playground's paths (or a browser's visit
    /// to the GraphQL endpoint), nil for any other request.
    public func respond(to request: HTTPRequest) -> HTTPResponse? {
        let target = request.head.target
        // The API's own requests (POST /graphql) leave at once.
        guard target.hasPrefix(configuration.path) || request.head.method == "GET" else { return nil }
        let path = request.head.path
        if path == configuration.graphQLPath, request.head.method == "GET", Self.prefersHTML(request) {
            return HTTPResponse(status: 302, headers: [("Location", configuration.path + target.dropFirst(path.count))])
        }
        guard path == configuration.path || path.hasPrefix(folder) else { return nil }
        var file = String(path.dropFirst(configuration.path.count).drop { $0 == "/" })
        if file == "language-service" {
            guard request.head.method == "POST" else { return Self.methodNotAllowed("POST") }
            return languageService(request.body)
        }
        guard request.head.method == "GET" || request.head.method == "HEAD" else { return Self.methodNotAllowed("GET, HEAD") }
        if file.isEmpty { file = "index.html" }
        if let missing = assets.missing {
            return HTTPResponse(status: 503, contentType: "text/plain; charset=utf-8", body: "The Playground is unavailable: \(missing).\n")
        }
        guard let body = assets.files[file] else {
            return HTTPResponse(status: 404, contentType: "text/plain; charset=utf-8", body: "not found\n")
        }
        var headers: [(name: String, value: String)] = [
            ("Content-Type", PlaygroundAssets.contentType(of: file)),
            ("X-Content-Type-Options", "nosniff"),
            // The page is small and changes with the binary; CodeMirror changes with apt.
            ("Cache-Control", file.hasPrefix("codemirror/") ? "public, max-age=3600" : "no-cache"),
        ]
        if file.hasSuffix(".html") {
            headers += [
                ("Content-Security-Policy", Self.contentSecurityPolicy), ("Referrer-Policy", "no-referrer"),
                ("X-Frame-Options", "DENY"),
            ]
        }
        return HTTPResponse(status: 200, headers: headers, body: request.head.method == "HEAD" ? [] : body)
    }

    /// Whether a GET names HTML before any JSON type in its Accept header,
    /// as a browser's address bar does and API clients do not.
    static func prefersHTML(_ request: HTTPRequest) -> Bool {
        let types = request.head.tokens("accept").map { $0.prefix { $0 != ";" }.trimmingSpaces() }
        guard let html = types.firstIndex(of: "text/html") else { return false }
        let json = types.firstIndex { $0.hasSuffix("json") } ?? types.count
        return html < json
    }

    // MARK: - The language service

    /// `{"method": "complete" | "diagnose" | "format", "text": "...",
    /// "position": {"line": 0, "character": 0}}`: completions at the
    /// position, diagnostics with the document's operations, or the document
    /// printed. Bad requests are answered 400 (413 over the size limit) with
    /// a GraphQL-style error and a code.
    private func languageService(_ body: [UInt8]) -> HTTPResponse {
        let request: GraphQLValue
        do {
            request = try body.withUnsafeBufferPointer { buffer throws(JSONReader.Error) in try JSONReader().read(buffer) }
        } catch {
            return Self.error(400, "The body is not JSON: \(error.message).", code: "BAD_REQUEST")
        }
        guard case .string(let method)? = request["method"], case .string(let text)? = request["text"] else {
            return Self.error(400, "A language service request names a \"method\" and a \"text\".", code: "BAD_REQUEST")
        }
        guard text.utf8.count <= configuration.maxTextBytes else {
            return Self.error(413, "The document is larger than \(configuration.maxTextBytes) bytes.", code: "DOCUMENT_TOO_LARGE")
        }
        switch method {
        case "complete":
            guard case .int(let line)? = request["position"]?["line"], case .int(let character)? = request["position"]?["character"],
                line >= 0, character >= 0
            else {
                return Self.error(400, "\"complete\" needs a \"position\" with a \"line\" and a \"character\".", code: "BAD_REQUEST")
            }
            let list = service.completions(in: text, at: TextPosition(line: line, character: character))
            return Self.json(
                .object([
                    .init("from", Self.value(list.from)), .init("to", Self.value(list.to)),
                    .init("items", .list(list.items.map(Self.value))),
                ]))
        case "diagnose":
            let analysis = service.analyze(text)
            let diagnostics = analysis.diagnostics.map { diagnostic in
                GraphQLValue.object([
                    .init("message", .string(diagnostic.message)), .init("severity", .string(diagnostic.severity.rawValue)),
                    .init("positions", .list(diagnostic.positions.map(Self.value))),
                ])
            }
            let operations = analysis.operations.map { operation in
                GraphQLValue.object([
                    .init("name", operation.name.map(GraphQLValue.string) ?? .null),
                    .init("type", .string(operation.type.rawValue)), .init("position", Self.value(operation.position)),
                ])
            }
            return Self.json(.object([.init("diagnostics", .list(diagnostics)), .init("operations", .list(operations))]))
        case "format":
            let failure: LanguageService.FormatFailure
            do throws(LanguageService.FormatFailure) {
                return Self.json(.object([.init("text", .string(try service.format(text)))]))
            } catch {
                failure = error
            }
            switch failure {
            case .tooLarge(let cost):
                return Self.error(
                    400,
                    "Formatting this document would write about \(cost.bytes) bytes and copy \(cost.copied) while indenting, "
                        + "more than the limits (\(service.maxFormattedBytes) and \(service.maxFormattingCopies)); nest it less deeply.",
                    code: "FORMAT_TOO_LARGE")
            case .syntax(let error):
                let locations = error.locations.map {
                    GraphQLValue.object([.init("line", .int($0.line)), .init("column", .int($0.column))])
                }
                return Self.json(
                    .object([
                        .init(
                            "errors",
                            .list([
                                .object([
                                    .init("message", .string(error.message)), .init("locations", .list(locations)),
                                    .init("extensions", .object([.init("code", .string("GRAPHQL_PARSE_FAILED"))])),
                                ])
                            ]))
                    ]))
            }
        default:
            return Self.error(
                400, "Unknown method \"\(method)\"; the language service knows complete, diagnose and format.", code: "BAD_REQUEST")
        }
    }

    private static func value(_ position: TextPosition) -> GraphQLValue {
        .object([.init("line", .int(position.line)), .init("character", .int(position.character))])
    }

    private static func value(_ item: CompletionItem) -> GraphQLValue {
        .object([
            .init("label", .string(item.label)), .init("kind", .string(item.kind.rawValue)),
            .init("detail", item.detail.map(GraphQLValue.string) ?? .null),
            .init("documentation", item.documentation.map(GraphQLValue.string) ?? .null),
            .init("deprecated", .boolean(item.isDeprecated)),
        ])
    }

    private static func json(_ value: GraphQLValue, status: Int = 200) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "no-store")],
            body: Array(value.json.utf8)
        )
    }

    private static func error(_ status: Int, _ message: String, code: String) -> HTTPResponse {
        json(
            .object([
                .init(
                    "errors",
                    .list([.object([.init("message", .string(message)), .init("extensions", .object([.init("code", .string(code))]))])])
                )
            ]), status: status)
    }

    private static func methodNotAllowed(_ allow: String) -> HTTPResponse {
        HTTPResponse(
            status: 405, headers: [("Allow", allow), ("Content-Type", "text/plain; charset=utf-8")],
            body: Array("method not allowed\n".utf8)
        )
    }
}
