import Foundation
import GraphQLTransport
import HuddleCore
import HuddlePlayground
import HuddlePostgres
import HuddleRuntime

/// What the server answers at each path.
public struct Routes: Sendable {
    public let metrics: Metrics
    /// The worker's pool, which /readyz asks.
    public let database: PostgresPool?
    /// The GraphQL endpoint (/graphql and /graphql/schema.graphql).
    public let graphQL: GraphQLOverHTTP?
    /// The in-browser IDE (/playground), when it is served.
    public let playground: Playground?
    /// Where what the callers are not told goes.
    public let logger: Logger
    /// The pages mail's links open (/account/…).
    let accountPages: AccountPages?
    /// Pictures (/media/…).
    let mediaPages: MediaPages?
    /// One-time upload URLs (/uploads/…).
    let uploadPages: UploadPages?
    /// The standbys queries may read from, which /readyz reports on.
    let replicas: ReplicaMonitor?

    package init(
        metrics: Metrics, database: PostgresPool? = nil, graphQL: GraphQLOverHTTP? = nil, playground: Playground? = nil,
        accountPages: AccountPages? = nil, mediaCache: MediaCache? = nil, pictures: PictureURLs = PictureURLs(), bucket: S3Bucket? = nil,
        uploadPages: UploadPages? = nil, replicas: ReplicaMonitor? = nil, logger: Logger = Logger()
    ) {
        self.replicas = replicas
        self.accountPages = accountPages
        self.uploadPages = uploadPages
        mediaPages = database.map { MediaPages(database: $0, cache: mediaCache, pictures: pictures, bucket: bucket, logger: logger) }
        self.metrics = metrics
        self.database = database
        self.graphQL = graphQL
        self.playground = playground
        self.logger = logger
    }

    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        // First: a browser's GET of /graphql goes to the Playground.
        if let playground, let response = playground.respond(to: request) { return response }
        if let graphQL, let response = await graphQL.respond(to: request) { return response }
        let path = Self.path(of: request.head.target)
        if var response = await probe(path, request) {
            response.route = String(path)
            return response
        }
        if let mediaPages, let response = await mediaPages.respond(to: request) { return response }
        if let uploadPages, let response = await uploadPages.respond(to: request) { return response }
        // Last: the pages mail's links open, which nothing frequent asks for.
        if let accountPages, let response = await accountPages.respond(to: request) { return response }
        return HTTPResponse(status: 404, contentType: "text/plain; charset=utf-8", body: "not found\n")
    }

    /// The health, readiness and metrics endpoints' answer; nil for any other path.
    // Inlined: /healthz is the cheapest request there is, and a call of its
    // own (an async frame, the answer copied out) was a share of it.
    @inline(__always)
    private func probe(_ path: Substring, _ request: HTTPRequest) async -> HTTPResponse? {
        switch path {
        case "/healthz":
            guard request.head.method == "GET" || request.head.method == "HEAD" else {
                return Self.methodNotAllowed(allow: "GET, HEAD")
            }
            // The process is up and its loop answers; readiness (the
            // database) is /readyz's question.
            return HTTPResponse(status: 200, contentType: "text/plain; charset=utf-8", body: "ok\n")
        case "/readyz":
            guard request.head.method == "GET" || request.head.method == "HEAD" else {
                return Self.methodNotAllowed(allow: "GET, HEAD")
            }
            return await readiness()
        case "/metrics":
            guard request.head.method == "GET" || request.head.method == "HEAD" else {
                return Self.methodNotAllowed(allow: "GET, HEAD")
            }
            return HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8", body: await metrics.render())
        default:
            return nil
        }
    }

    /// Ready when the database answers a statement through this worker's pool.
    package func readiness() async -> HTTPResponse {
        guard let database else {
            return HTTPResponse(status: 503, contentType: "text/plain; charset=utf-8", body: "no database configured\n")
        }
        do {
            _ = try await database.query("SELECT 1")
            return HTTPResponse(status: 200, contentType: "text/plain; charset=utf-8", body: "ready\n" + replicaReport())
        } catch {
            // libpq's text names socket paths and hosts: it goes to the log, not to the caller.
            logger.log(.warning, "readiness check failed", ["error": .string("\(error)")])
            return HTTPResponse(
                status: 503, headers: [("Content-Type", "text/plain; charset=utf-8"), ("Retry-After", "5")],
                body: Array("database unavailable\n".utf8)
            )
        }
    }

    /// A line per standby, by its place in the order given (its host is
    /// the metrics' to tell, not an anonymous caller's): whether reads go
    /// to it, and how far behind it is. Ready either way: without them,
    /// reads go to the primary.
    private func replicaReport() -> String {
        guard let replicas else { return "" }
        return replicas.replicas.enumerated().map { index, replica in
            let lag = replica.lag.map { String(format: "%.3f s", Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18) }
            let state =
                !replica.isUp
                ? "down" : replica.inRotation ? "in rotation, lag \(lag ?? "unknown")" : "out of rotation, lag \(lag ?? "unknown")"
            return "replica \(index + 1): \(state)\n"
        }.joined()
    }

    /// The target without its query string.
    package static func path(of target: String) -> Substring {
        HTTPRequestHead.path(of: target)
    }

    package static func methodNotAllowed(allow: String) -> HTTPResponse {
        HTTPResponse(
            status: 405,
            headers: [("Allow", allow), ("Content-Type", "text/plain; charset=utf-8")],
            body: Array("method not allowed\n".utf8)
        )
    }
}
