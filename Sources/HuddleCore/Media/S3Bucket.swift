import Foundation
import HuddlePush
import HuddleRuntime

/// An S3-compatible bucket, reached over HTTP with AWS Signature Version 4:
/// objects put (in parts past `multipartThreshold`), read and deleted.
/// Loop-bound through its HTTP client: one per loop.
package struct S3Bucket: Sendable {
    /// Where the bucket is and how to sign for it: `s3://BUCKET/PREFIX`
    /// with `endpoint`, `region` and `path-style` as query parameters, the
    /// keys from `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY`.
    package struct Location: Sendable, Equatable {
        package var bucket: String
        /// Put before every object's name (`pictures/`), possibly empty.
        package var prefix: String
        /// `https://s3.eu-west-1.amazonaws.com`, or a compatible server's.
        package var endpoint: String
        package var region: String
        /// `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key`.
        package var pathStyle: Bool
        package var accessKey: String
        package var secretKey: String

        package struct Invalid: Error, CustomStringConvertible {
            package var description: String
        }

        package init(
            bucket: String, prefix: String = "", endpoint: String, region: String, pathStyle: Bool, accessKey: String, secretKey: String
        ) {
            self.bucket = bucket
            self.prefix = prefix
            self.endpoint = endpoint
            self.region = region
            self.pathStyle = pathStyle
            self.accessKey = accessKey
            self.secretKey = secretKey
        }

        /// Reads `s3://bucket/prefix?endpoint=…&region=…&path-style=true`.
        package init(url: String, environment: [String: String]) throws(Invalid) {
            guard url.hasPrefix("s3://") else { throw Invalid(description: "the media store must be an s3:// URL") }
            let rest = url.dropFirst(5)
            let location = rest.prefix { $0 != "?" }
            let query = rest.drop { $0 != "?" }.dropFirst()
            let bucket = location.prefix { $0 != "/" }
            guard (3...63).contains(bucket.count),
                bucket.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" || $0 == "." }), bucket.allSatisfy(\.isASCII)
            else { throw Invalid(description: "\(bucket) is not an S3 bucket name") }
            var prefix = String(location.dropFirst(bucket.count).drop { $0 == "/" })
            if !prefix.isEmpty && !prefix.hasSuffix("/") { prefix += "/" }
            let parameters = FormURLEncoded.pairs(query) ?? []
            func parameter(_ name: String) -> String? { parameters.first { $0.name == name }?.value }
            region = parameter("region") ?? environment["AWS_REGION"] ?? "us-east-1"
            endpoint = parameter("endpoint") ?? "https://s3.\(region).amazonaws.com"
            guard endpoint.hasPrefix("https://") || endpoint.hasPrefix("http://") else {
                throw Invalid(description: "the media store's endpoint must be an http:// or https:// URL")
            }
            if endpoint.hasSuffix("/") { endpoint.removeLast() }
            pathStyle = ["true", "1", "yes"].contains(parameter("path-style") ?? "false")
            guard let accessKey = environment["AWS_ACCESS_KEY_ID"], let secretKey = environment["AWS_SECRET_ACCESS_KEY"],
                !accessKey.isEmpty, !secretKey.isEmpty
            else { throw Invalid(description: "an s3:// media store needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY") }
            self.bucket = String(bucket)
            self.prefix = prefix
            self.accessKey = accessKey
            self.secretKey = secretKey
        }
    }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    package let location: Location
    package let client: HTTPClient
    /// Objects larger than this go in parts (`multipartPartBytes` each, the
    /// last smaller); S3 takes parts of 5 MiB and more.
    package var multipartThreshold = 16 << 20
    package var multipartPartBytes = 8 << 20

    /// What a bucket's HTTP client needs: room for a picture's largest
    /// rendition in an answer.
    package static var clientSettings: HTTPClient.Settings {
        var settings = HTTPClient.Settings()
        settings.maxResponseBytes = 32 << 20
        settings.timeout = .seconds(60)
        return settings
    }

    package init(_ location: Location, client: HTTPClient) {
        self.location = location
        self.client = client
    }

    // MARK: Objects

    /// Stores `bytes` as `name` (below the prefix).
    package func put(_ name: String, _ bytes: [UInt8], contentType: String) async throws {
        if bytes.count > multipartThreshold { return try await putInParts(name, bytes, contentType: contentType) }
        let response = try await send("PUT", name, body: bytes, headers: [("Content-Type", contentType)])
        guard response.status == 200 else { throw failure("PUT", name, response) }
    }

    /// The object `name`, or nil when there is none.
    package func get(_ name: String) async throws -> [UInt8]? {
        let response = try await send("GET", name)
        if response.status == 404 { return nil }
        guard response.status == 200 else { throw failure("GET", name, response) }
        return response.body
    }

    /// Removes the object `name` (none there is no failure).
    package func delete(_ name: String) async throws {
        let response = try await send("DELETE", name)
        guard response.status == 204 || response.status == 200 || response.status == 404 else { throw failure("DELETE", name, response) }
    }

    /// A multipart upload: created, each part put, completed, or aborted
    /// when a part fails (so no parts are left billed).
    private func putInParts(_ name: String, _ bytes: [UInt8], contentType: String) async throws {
        let created = try await send("POST", name, query: [("uploads", "")], headers: [("Content-Type", contentType)])
        guard created.status == 200, let uploadID = Self.element("UploadId", in: created.body) else {
            throw failure("POST ?uploads", name, created)
        }
        do {
            var etags: [String] = []
            var offset = 0
            while offset < bytes.count {
                let part = Array(bytes[offset..<min(offset + multipartPartBytes, bytes.count)])
                let response = try await send(
                    "PUT", name, query: [("partNumber", String(etags.count + 1)), ("uploadId", uploadID)], body: part)
                guard response.status == 200, let etag = response.headers["etag"] else { throw failure("PUT part", name, response) }
                etags.append(etag)
                offset += part.count
            }
            let parts = etags.enumerated().map { "<Part><PartNumber>\($0 + 1)</PartNumber><ETag>\(Self.escaped($1))</ETag></Part>" }
            let body = Array("<CompleteMultipartUpload>\(parts.joined())</CompleteMultipartUpload>".utf8)
            let completed = try await send("POST", name, query: [("uploadId", uploadID)], body: body)
            // A completion can fail inside a 200: its body then says Error.
            guard completed.status == 200, Self.element("Error", in: completed.body) == nil else {
                throw failure("POST ?uploadId", name, completed)
            }
        } catch {
            _ = try? await send("DELETE", name, query: [("uploadId", uploadID)])
            throw error
        }
    }

    // MARK: Requests

    private func send(
        _ method: String, _ name: String, query: [(String, String)] = [], body: [UInt8] = [], headers: [(String, String)] = []
    ) async throws -> HTTPClient.Response {
        let request = signed(method, name, query: query, body: body, headers: headers, at: Date())
        switch await client.send(request) {
        case .success(let response): return response
        case .failure(let failure): throw Failure(description: "S3 \(method) \(name): \(failure.description)")
        }
    }

    private func failure(_ what: String, _ name: String, _ response: HTTPClient.Response) -> Failure {
        let code = Self.element("Code", in: response.body) ?? "no error code"
        return Failure(description: "S3 \(what) \(name): \(response.status) \(code)")
    }

    /// The request for `method` on object `name`, signed by Signature
    /// Version 4 (header form, the payload's SHA-256 signed) at `date`.
    func signed(
        _ method: String, _ name: String, query: [(String, String)], body: [UInt8], headers: [(String, String)], at date: Date
    ) -> HTTPClient.Request {
        let endpoint = URLComponents(string: location.endpoint)
        let scheme = endpoint?.scheme ?? "https"
        // As libcurl writes Host: an IPv6 literal in brackets, and no port
        // when it is the scheme's own (the signature covers Host as sent).
        var hostName = endpoint?.host ?? ""
        if hostName.contains(":") && !hostName.hasPrefix("[") { hostName = "[\(hostName)]" }
        let defaultPort = scheme == "https" ? 443 : 80
        let endpointHost = hostName + (endpoint?.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? "")
        let host = location.pathStyle ? endpointHost : "\(location.bucket).\(endpointHost)"
        let key = location.prefix + name
        let path = (location.pathStyle ? "/\(location.bucket)/" : "/") + Self.encoded(key, keepingSlashes: true)
        let canonicalQuery = query.map { (Self.encoded($0.0, keepingSlashes: false), Self.encoded($0.1, keepingSlashes: false)) }
            .sorted { $0 < $1 }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        let authorization = Self.authorization(
            method: method, path: path, query: canonicalQuery, host: host, headers: headers, payload: body, date: date,
            region: location.region, accessKey: location.accessKey, secretKey: location.secretKey)
        return HTTPClient.Request(
            method: method, url: "\(scheme)://\(host)\(path)" + (canonicalQuery.isEmpty ? "" : "?\(canonicalQuery)"),
            headers: authorization.headers, body: body, isTrusted: true)
    }

    /// The headers a signed request carries (Host is libcurl's to send):
    /// the caller's, `x-amz-date`, `x-amz-content-sha256` and `Authorization`.
    package static func authorization(
        method: String, path: String, query: String, host: String, headers: [(String, String)], payload: [UInt8], date: Date,
        region: String, accessKey: String, secretKey: String
    ) -> (headers: [(name: String, value: String)], signature: String) {
        let stamp = amzDate(date)
        let day = String(stamp.prefix(8))
        let payloadHash = Digest.sha256Hex(payload)
        var signedHeaders = headers.map { ($0.0.lowercased(), $0.1.trimmingSpaces()) }
        signedHeaders += [("host", host), ("x-amz-content-sha256", payloadHash), ("x-amz-date", stamp)]
        signedHeaders.sort { $0.0 < $1.0 }
        let names = signedHeaders.map(\.0).joined(separator: ";")
        let canonical = [
            method, path, query, signedHeaders.map { "\($0.0):\($0.1)\n" }.joined(), names, payloadHash,
        ].joined(separator: "\n")
        let scope = "\(day)/\(region)/s3/aws4_request"
        let toSign = "AWS4-HMAC-SHA256\n\(stamp)\n\(scope)\n\(Digest.sha256Hex(Array(canonical.utf8)))"
        var key = Array("AWS4\(secretKey)".utf8)
        for part in [day, region, "s3", "aws4_request"] { key = HMACSHA256.authenticate(Array(part.utf8), key: key) }
        let signature = Digest.hex(HMACSHA256.authenticate(Array(toSign.utf8), key: key))
        let value = "AWS4-HMAC-SHA256 Credential=\(accessKey)/\(scope),SignedHeaders=\(names),Signature=\(signature)"
        let sent =
            headers.map { (name: $0.0, value: $0.1) } + [
                ("x-amz-date", stamp), ("x-amz-content-sha256", payloadHash), ("Authorization", value),
            ]
        return (sent, signature)
    }

    static func amzDate(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return "\(parts.year ?? 1970)\(two(parts.month))\(two(parts.day))T\(two(parts.hour))\(two(parts.minute))\(two(parts.second))Z"
    }

    /// RFC 3986 unreserved characters as they are, the rest percent-encoded
    /// (S3's rule; `/` kept in an object's path).
    static func encoded(_ text: String, keepingSlashes: Bool) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E: out.unicodeScalars.append(Unicode.Scalar(byte))
            case 0x2F where keepingSlashes: out.append("/")
            default: out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// The text of the first `<name>` element of an XML answer.
    static func element(_ name: String, in body: [UInt8]) -> String? {
        let text = String(decoding: body, as: UTF8.self)
        guard let start = text.range(of: "<\(name)>"), let end = text.range(of: "</\(name)>", range: start.upperBound..<text.endIndex)
        else { return nil }
        return String(text[start.upperBound..<end.lowerBound])
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
            of: ">", with: "&gt;"
        ).replacingOccurrences(of: "\"", with: "&quot;")
    }
}
