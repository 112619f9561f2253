import CLibCurl
import Foundation

/// Messages sent to an SMTP server by libcurl: `smtp://` with STARTTLS
/// (required unless `security` says otherwise), `smtps://` with TLS from the
/// first byte, AUTH by whichever of the mechanisms the server offers
/// (PLAIN, LOGIN, …) when the URL carries a user. Each message is one
/// connection, made on a thread of its own, so a slow server holds up no
/// event loop.
public struct SMTPTransport: MailTransport {
    public enum Security: String, Sendable, CaseIterable {
        /// STARTTLS, or no sending: what an `smtp://` URL means by default.
        case startTLS = "starttls"
        /// Plain text, for a relay on the same machine or a test's server.
        case none
    }

    public struct Settings: Sendable {
        /// `smtp://` or `smtps://`, host and port, and `user:password@` to authenticate.
        public var url: String
        /// What an `smtp://` URL does about TLS (an `smtps://` one is TLS throughout).
        public var security = Security.startTLS
        /// The certificates trusted for the server's (nil: the system's).
        public var certificateAuthorities: String?
        /// How long one message may take, connecting included.
        public var timeout = Duration.seconds(60)

        public init(url: String) {
            self.url = url
        }
    }

    /// Why settings cannot be used, said before anything is sent.
    public struct SettingsError: Error, CustomStringConvertible {
        public var description: String
    }

    private let endpoint: String
    private let user: String?
    private let password: String?
    private let settings: Settings
    /// Where it sends, with no credentials: what the log shows.
    public let destination: String

    public init(_ settings: Settings) throws(SettingsError) {
        guard let components = URLComponents(string: settings.url), let scheme = components.scheme?.lowercased(),
            scheme == "smtp" || scheme == "smtps", let host = components.host, !host.isEmpty
        else {
            throw SettingsError(
                description: "the SMTP URL must be smtp://host[:port] or smtps://host[:port], with user:password@ to sign in")
        }
        user = components.user.map { $0.removingPercentEncoding ?? $0 }
        password = components.password.map { $0.removingPercentEncoding ?? $0 }
        var bare = URLComponents()
        bare.scheme = scheme
        bare.host = host
        bare.port = components.port
        endpoint = bare.string ?? "\(scheme)://\(host)"
        destination = endpoint
        self.settings = settings
    }

    public func send(_ mail: OutgoingMail) async throws(MailError) {
        let result: Result<Void, MailError> = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.perform(mail)) }.start()
        }
        try result.get()
    }

    /// The bytes libcurl reads as it sends the message.
    private final class Upload {
        let bytes: [UInt8]
        var offset = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    private static let initialised: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// Sends on the calling thread, which it blocks.
    private func perform(_ mail: OutgoingMail) -> Result<Void, MailError> {
        guard Self.initialised, let handle = curl_easy_init() else {
            return .failure(MailError(permanent: false, "libcurl could not start"))
        }
        let upload = Upload(mail.bytes)
        let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        defer { errorText.deallocate() }
        let recipients = curl_slist_append(nil, "<\(mail.recipient.address)>")
        defer { curl_slist_free_all(recipients) }
        // Declared last so it runs first: the handle may still use the
        // error buffer and the list as it closes (a QUIT).
        defer { curl_easy_cleanup(handle) }

        // The EHLO greeting names the sender's domain (the URL's path).
        _ = huddle_curl_set_string(handle, CURLOPT_URL, endpoint + "/" + String(mail.sender.domain))
        _ = huddle_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "smtp,smtps")
        if let user { _ = huddle_curl_set_string(handle, CURLOPT_USERNAME, user) }
        if let password { _ = huddle_curl_set_string(handle, CURLOPT_PASSWORD, password) }
        let tls = settings.security == .startTLS ? CURLUSESSL_ALL : CURLUSESSL_NONE
        _ = huddle_curl_set_long(handle, CURLOPT_USE_SSL, Int(tls.rawValue))
        if let authorities = settings.certificateAuthorities { _ = huddle_curl_set_string(handle, CURLOPT_CAINFO, authorities) }
        _ = huddle_curl_set_string(handle, CURLOPT_MAIL_FROM, "<\(mail.sender.address)>")
        _ = huddle_curl_set_list(handle, CURLOPT_MAIL_RCPT, recipients)
        _ = huddle_curl_set_long(handle, CURLOPT_UPLOAD, 1)
        _ = huddle_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = huddle_curl_set_long(handle, CURLOPT_TIMEOUT_MS, Int(settings.timeout.components.seconds * 1000))
        _ = huddle_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(min(settings.timeout, .seconds(15)).components.seconds * 1000))
        _ = huddle_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errorText)
        _ = huddle_curl_set_pointer(handle, CURLOPT_READDATA, Unmanaged.passUnretained(upload).toOpaque())
        _ = huddle_curl_set_io_callback(handle, CURLOPT_READFUNCTION) { buffer, size, count, context in
            guard let buffer, let context else { return 0 }
            let upload = Unmanaged<Upload>.fromOpaque(context).takeUnretainedValue()
            let length = min(size * count, upload.bytes.count - upload.offset)
            upload.bytes.withUnsafeBufferPointer { bytes in
                UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + upload.offset, byteCount: length)
            }
            upload.offset += length
            return length
        }
        let code = withExtendedLifetime(upload) { curl_easy_perform(handle) }
        guard code != CURLE_OK else { return .success(()) }
        var reply = 0
        _ = huddle_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &reply)
        let detail = errorText.pointee != 0 ? String(cString: errorText) : String(cString: curl_easy_strerror(code))
        // A 5xx reply to the recipient is the server's final word on it;
        // anything else (a 4xx, a connection that failed, a timeout, a 5xx
        // to the greeting, the sender or STARTTLS, a refused password) is
        // the operator's to fix or may pass, and the message waits for it
        // until its last attempt.
        let permanent = (500..<600).contains(reply) && detail.hasPrefix("RCPT")
        return .failure(MailError(permanent: permanent, reply > 0 ? "\(detail) (reply \(reply))" : detail))
    }
}

extension SMTPTransport {
    /// The libcurl this process runs on (its version, as it reports it).
    public static var libcurlVersion: String {
        // "libcurl/7.88.1 OpenSSL/3.0.19 zlib/…": its first word's version.
        let words = String(cString: curl_version()).split(separator: " ")
        return words.first.map { String($0.drop { $0 != "/" }.dropFirst()) } ?? "unknown"
    }
}
