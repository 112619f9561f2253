import HuddleCore
import HuddleMedia
import HuddlePostgres
import HuddleRuntime

/// Pictures over HTTP: `GET /media/<key>/<size>.<webp|jpg>`, or
/// `/media/<key>/<size>` for the encoding the client's Accept prefers
/// (WebP when it says so, else JPEG). A key is made anew for each picture,
/// so every answer may be cached for ever; a strong ETag answers
/// If-None-Match with 304, and a single byte range is served as such.
struct MediaPages: Sendable {
    let database: PostgresPool
    /// The process's renditions in memory; nil reads each from the database.
    let cache: MediaCache?
    /// Checks a private picture's signed URL.
    let pictures: PictureURLs
    /// Where pictures kept in a bucket are read from.
    let bucket: S3Bucket?
    let logger: Logger

    /// The answer when the path is under /media/, else nil.
    func respond(to request: HTTPRequest) async -> HTTPResponse? {
        let path = Routes.path(of: request.head.target)
        guard path.hasPrefix("/media/") else { return nil }
        guard request.head.method == "GET" || request.head.method == "HEAD" else { return Routes.methodNotAllowed(allow: "GET, HEAD") }
        let parts = path.dropFirst("/media/".count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 22, parts[0].utf8.allSatisfy(Self.isKeyByte) else { return Self.notFound }
        let file = parts[1].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let size = String(file[0])
        guard ["thumbnail", "feed", "full"].contains(size) else { return Self.notFound }
        let encoding: ImageProcessor.Encoding
        var negotiated = false
        if file.count == 2 {
            guard let named = ImageProcessor.Encoding.allCases.first(where: { $0.fileExtension == file[1] }) else { return Self.notFound }
            encoding = named
        } else {
            negotiated = true
            encoding = Self.acceptsWebP(request.head.header("accept")) ? .webp : .jpeg
        }
        let cacheKey = "\(parts[0])/\(size).\(encoding.rawValue)"
        var stored = cache?.value(for: cacheKey)
        do {
            if stored == nil {
                let stamp = cache?.stamp()
                stored = try await MediaLibrary.rendition(
                    key: String(parts[0]), size: size, encoding: encoding, on: database, bucket: bucket)
                if let stored { cache?.keep(stored, for: cacheKey, readSince: stamp) }
            }
        } catch {
            logger.log(.warning, "media: cannot read a picture", ["error": .string("\(error)")])
            return HTTPResponse(
                status: 503, headers: [("Content-Type", "text/plain; charset=utf-8"), ("Retry-After", "5")],
                body: Array("database unavailable\n".utf8))
        }
        guard let stored else { return Self.notFound }
        // A private project's picture: only by a URL signed here that has
        // not expired, cached by the browser alone and not past its expiry.
        var cacheControl = "public, max-age=31536000, immutable"
        if stored.isPrivate {
            let query = request.head.target.drop { $0 != "?" }.dropFirst()
            guard let expiresIn = pictures.secondsLeft(path: String(path), query: query) else { return Self.forbidden }
            // Never kept past its signature's expiry.
            cacheControl = "private, max-age=\(min(expiresIn, 3600))"
        }
        let etag = "\"\(stored.etag)\""
        var headers: [(name: String, value: String)] = [
            ("ETag", etag), ("Cache-Control", cacheControl), ("X-Content-Type-Options", "nosniff"), ("Accept-Ranges", "bytes"),
        ]
        if negotiated { headers.append(("Vary", "Accept")) }
        if let match = request.head.header("if-none-match"), Self.matches(match, etag) {
            return HTTPResponse(status: 304, headers: headers)
        }
        switch Self.range(request.head.header("range"), length: stored.bytes.count) {
        case .whole:
            return HTTPResponse(status: 200, headers: headers + [("Content-Type", stored.encoding.contentType)], body: stored.bytes)
        case .part(let bounds):
            headers.append(("Content-Type", stored.encoding.contentType))
            headers.append(("Content-Range", "bytes \(bounds.lowerBound)-\(bounds.upperBound)/\(stored.bytes.count)"))
            return HTTPResponse(status: 206, headers: headers, body: Array(stored.bytes[bounds]))
        case .unsatisfiable:
            headers.append(("Content-Range", "bytes */\(stored.bytes.count)"))
            return HTTPResponse(status: 416, headers: headers)
        }
    }

    static let notFound = HTTPResponse(status: 404, contentType: "text/plain; charset=utf-8", body: "no such picture\n")
    static let forbidden = HTTPResponse(
        status: 403, contentType: "text/plain; charset=utf-8", body: "this picture needs a signed URL that has not expired\n")

    static func isKeyByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D || byte == 0x5F
    }

    /// Whether Accept names image/webp (or image/*, */*? no: those say
    /// nothing of WebP, and JPEG is what every client shows) with q above 0.
    static func acceptsWebP(_ accept: String?) -> Bool {
        guard let accept else { return false }
        return accept.split(separator: ",").contains { item in
            let fields = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard fields.first == "image/webp" else { return false }
            let quality = fields.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return quality > 0
        }
    }

    /// If-None-Match's list (or `*`) against the ETag, by weak comparison (RFC 9110 §13.1.2).
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || (tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag) == etag
        }
    }

    enum Range: Equatable {
        case whole
        case part(ClosedRange<Int>)
        case unsatisfiable
    }

    /// A single `bytes=` range (RFC 9110 §14.1.2); several ranges, or any
    /// other unit or form, is answered whole, as a server may.
    static func range(_ header: String?, length: Int) -> Range {
        guard let header, header.hasPrefix("bytes="), !header.contains(","), length > 0 else { return .whole }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        let ends = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard ends.count == 2 else { return .whole }
        if ends[0].isEmpty {
            guard let suffix = Int(ends[1]), suffix >= 0 else { return .whole }
            return suffix == 0 ? .unsatisfiable : .part(max(0, length - suffix)...(length - 1))
        }
        guard let first = Int(ends[0]), first >= 0 else { return .whole }
        guard let last = ends[1].isEmpty ? Int.max : Int(ends[1]), last >= first else { return .whole }
        guard first < length else { return .unsatisfiable }
        return .part(first...min(last, length - 1))
    }
}
