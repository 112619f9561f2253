import GraphQL
import HuddleCore
import HuddleMedia
import HuddlePostgres
import HuddleRuntime

/// `PUT /uploads?token=…`: the bytes of one file, to the one-time URL
/// `createUpload` gave. The token is the URL's only credential, kept
/// hashed, and in the query string, which the request log leaves out. The
/// body is streamed into the upload as it arrives; the answer is 201 with
/// the `id` to pass as the `Upload`, or an error with a code. Browsers on
/// the allowed origins may PUT too (CORS).
package struct UploadPages: Sendable {
    let database: PostgresPool
    let settings: AppSettings
    let processor: ImageProcessor
    /// The media store, when pictures go to a bucket.
    let bucket: S3Bucket?
    /// Origins whose browsers may PUT; `"*"` allows any.
    let allowedOrigins: [String]
    /// Where failures that are not the client's go.
    let logger: Logger

    package init(
        database: PostgresPool, settings: AppSettings, processor: ImageProcessor, bucket: S3Bucket?, allowedOrigins: [String],
        logger: Logger
    ) {
        self.bucket = bucket
        self.allowedOrigins = allowedOrigins
        self.logger = logger
        self.database = database
        self.settings = settings
        self.processor = processor
    }

    static let path = "/uploads"

    /// Whether `head` is a PUT of an upload, and if so how long its body
    /// may be (it is streamed, not collected).
    static func streamsBody(_ head: HTTPRequestHead, settings: AppSettings) -> Int? {
        guard head.method == "PUT", Routes.path(of: head.target) == path else { return nil }
        return settings[Shared.uploadFileMegabytes] << 20
    }

    /// The answer when the path is /uploads, else nil.
    func respond(to request: HTTPRequest) async -> HTTPResponse? {
        guard Routes.path(of: request.head.target) == Self.path else { return nil }
        var response = await answer(request)
        response.headers += cors(request)
        return response
    }

    private func cors(_ request: HTTPRequest) -> [(name: String, value: String)] {
        guard let origin = request.head.header("origin"), allowedOrigins.contains("*") || allowedOrigins.contains(origin) else {
            return []
        }
        return [("Access-Control-Allow-Origin", origin), ("Vary", "Origin")]
    }

    private func answer(_ request: HTTPRequest) async -> HTTPResponse {
        if request.head.method == "OPTIONS" {
            guard request.head.header("origin") != nil else { return HTTPResponse(status: 204, headers: [("Allow", "PUT, OPTIONS")]) }
            guard !cors(request).isEmpty else { return Self.error(403, "This origin may not upload here.", code: "FORBIDDEN") }
            return HTTPResponse(
                status: 204,
                headers: [
                    ("Access-Control-Allow-Methods", "PUT, OPTIONS"), ("Access-Control-Allow-Headers", "Content-Type"),
                    ("Access-Control-Max-Age", "600"),
                ])
        }
        guard request.head.method == "PUT" else { return Routes.methodNotAllowed(allow: "PUT, OPTIONS") }
        let query = request.head.target.drop { $0 != "?" }.dropFirst()
        let token = FormURLEncoded.pairs(Substring(query))?.first { $0.name == "token" }?.value ?? ""
        guard let body = request.bodyStream, (1...100).contains(token.utf8.count),
            token.utf8.allSatisfy({
                $0 == 0x2D || $0 == 0x5F || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
            })
        else { return Self.error(404, "There is no such upload URL.", code: "NOT_FOUND") }
        do {
            let slots = try await database.query(
                "SELECT id, user_id FROM upload_slots WHERE token_hash = $1 AND expires_at > now() AND media_id IS NULL",
                [Digest.sha256Hex(Array(token.utf8))])
            guard let slot = slots.first else {
                return Self.error(404, "This upload URL has expired, was used already, or never was.", code: "NOT_FOUND")
            }
            // Counted against the hour's uploads when the URL was made.
            let (id, owner) = (try slot.decode(Int64.self, at: 0), try slot.decode(Int64.self, at: 1))
            let upload = try await Uploads.stage(
                owner: owner, maxBytes: settings[Shared.uploadFileMegabytes] << 20, processor: processor, database: database,
                bucket: bucket, next: { try await body.next() })
            let taken = try await database.query(
                """
                UPDATE upload_slots SET media_id = $2 WHERE id = $1 AND media_id IS NULL RETURNING 1
                """, [id, GlobalID.decode(upload)?.id ?? 0])
            guard !taken.isEmpty else {
                await Uploads.discard([upload], owner: owner, on: database)
                return Self.error(409, "This upload URL was used meanwhile.", code: "CONFLICT")
            }
            return HTTPResponse(
                status: 201, headers: [("Content-Type", "application/json")],
                body: Array(GraphQLValue.object([.init("id", .string(GlobalID(type: "UploadSlot", id: id).encoded))]).json.utf8))
        } catch let refusal as Uploads.Refusal {
            return Self.error(refusal.status, refusal.message, code: refusal.code)
        } catch let cut as HTTPError {
            return Self.error(
                cut.status, "The upload did not arrive whole: \(cut.reason).",
                code: cut.status == 413 ? "UPLOAD_TOO_LARGE" : cut.status == 408 ? "REQUEST_TIMEOUT" : "BAD_REQUEST")
        } catch {
            logger.log(.error, "upload failed", ["error": .string("\(error)")])
            return Self.error(503, "The upload could not be kept; try again.", code: "SERVICE_UNAVAILABLE")
        }
    }

    /// An error as GraphQL's clients read them: `errors` with a code.
    static func error(_ status: Int, _ message: String, code: String) -> HTTPResponse {
        let error = GraphQLValue.object([
            .init("message", .string(message)), .init("extensions", .object([.init("code", .string(code))])),
        ])
        return HTTPResponse(
            status: status, headers: [("Content-Type", "application/json")],
            body: Array(GraphQLValue.object([.init("errors", .list([error]))]).json.utf8))
    }
}
