/// A response to one HTTP request.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header fields besides Content-Length, Date-less by design (RFC 9110
    /// §6.6.1 lets an origin without a reliable clock omit Date; it also
    /// saves formatting a date per response).
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// What the request ran, for its log line (GraphQL over HTTP's operation).
    public var operation: LoggedOperation?
    /// The request counter's `operation_type` label: what kind of work the
    /// request ran (GraphQL over HTTP gives `query`, `mutation` or
    /// `subscription`); `none` when nil.
    public var countedAs: String?
    /// A body written as it is produced, instead of `body`.
    public var stream: HTTPBodyStream?
    /// The route that answered (`/graphql`), which names the request's
    /// span; nil where the path itself is not one a trace may group by.
    public var route: String?

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public init(status: Int, contentType: String, body: String) {
        self.init(status: status, headers: [("Content-Type", contentType)], body: Array(body.utf8))
    }

    /// A plain-text response explaining why a request was refused.
    public static func error(_ error: HTTPError) -> HTTPResponse {
        HTTPResponse(status: error.status, contentType: "text/plain; charset=utf-8", body: error.reason + "\n")
    }

    /// The bytes on the wire. A response to HEAD carries the length of the
    /// body it would have had, but not the body (RFC 9110 §9.3.2).
    func serialized(forHead: Bool, closing: Bool, chunked: Bool = false) -> [UInt8] {
        // Appended piece by piece into one buffer of the right size: a
        // response is written for every request, and building it through
        // String interpolation cost more than the rest of `{ __typename }`.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + headers.count * 64 + (forHead ? 0 : body.count))
        func append(_ text: String) {
            var text = text
            text.withUTF8 { bytes.append(contentsOf: $0) }
        }
        func raw(_ text: StaticString) {
            bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
        // Digits written in place: a number made into a String first was a
        // share of writing a small response.
        func decimal(_ number: Int) {
            var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
            withUnsafeMutableBytes(of: &digits) { buffer in
                var value = number.magnitude
                var index = buffer.count
                repeat {
                    index -= 1
                    buffer[index] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                } while value > 0
                if number < 0 { bytes.append(UInt8(ascii: "-")) }
                bytes.append(contentsOf: buffer[index...])
            }
        }
        if status == 200 {
            raw("HTTP/1.1 200 OK\r\n")
        } else {
            raw("HTTP/1.1 ")
            decimal(status)
            raw(" ")
            append(Self.reasonPhrase(status))
            raw("\r\n")
        }
        for (name, value) in headers {
            append(name)
            raw(": ")
            append(value)
            raw("\r\n")
        }
        if stream != nil {
            if chunked { raw("Transfer-Encoding: chunked\r\n") }
        } else if status >= 200 && status != 204 && status != 304 {
            // RFC 9110 §8.6: never in a 1xx or 204 response; in a 304 only
            // the length the 200 would have had, which a cache may copy
            // onto what it keeps, so none rather than 0.
            raw("Content-Length: ")
            decimal(body.count)
            raw("\r\n")
        }
        if closing { raw("Connection: close\r\n") }
        raw("\r\n")
        if !forHead { bytes.append(contentsOf: body) }
        return bytes
    }

    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 204: "No Content"
        case 302: "Found"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 426: "Upgrade Required"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: ""
        }
    }
}
