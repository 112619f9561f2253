import CLibCurl
import CLibUV
import Foundation
import HuddleRuntime
import TraceContext
import Tracing

/// An HTTP client on an event loop: libcurl's multi interface driven by
/// libuv (a poll handle per socket, one timer), so thousands of requests
/// wait at once without a thread each, and requests to one host share its
/// connections (HTTP/2 streams where the server speaks it, as APNs requires).
/// Every connection's address is checked as it is made, after DNS, so a
/// name that resolves to a private address is refused even if it resolved
/// to a public one when it was registered.
public final class HTTPClient: @unchecked Sendable {
    public struct Settings: Sendable {
        /// The certificates trusted for servers' (nil: the system's).
        public var certificateAuthorities: String?
        /// Whether addresses that are not public, and plain `http`, may be
        /// called: for services on the operator's own network, and tests.
        public var allowsPrivateNetworks = false
        /// How long one request may take, connecting included.
        public var timeout = Duration.seconds(30)
        public var connectTimeout = Duration.seconds(10)
        /// The most of a response's body kept; past it the request fails.
        public var maxResponseBytes = 65536

        public init() {}
    }

    public struct Request: Sendable {
        public var method: String
        public var url: String
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]
        /// A destination the operator configured (APNs, FCM, the webhook)
        /// rather than one a user registered: its address is not checked.
        public var isTrusted: Bool
        /// Whether the request carries the trace it is made in
        /// (`traceparent`, `tracestate`): for the operator's own services,
        /// whose spans then join the server's.
        public var propagatesTrace: Bool

        public init(
            method: String = "POST", url: String, headers: [(name: String, value: String)] = [], body: [UInt8] = [],
            isTrusted: Bool = false,
            propagatesTrace: Bool = false
        ) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
            self.isTrusted = isTrusted
            self.propagatesTrace = propagatesTrace
        }
    }

    public struct Response: Sendable {
        public var status: Int
        /// Names in lower case.
        public var headers: [String: String]
        public var body: [UInt8]
        /// "1.1" or "2".
        public var httpVersion: String
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        /// The address was refused (not public) rather than unreachable.
        public var refusedAddress = false
    }

    public let loop: EventLoop
    public let settings: Settings
    /// Touched on the loop thread only.
    private var multi: UnsafeMutableRawPointer?
    private let timer = UnsafeMutablePointer<uv_timer_t>.allocate(capacity: 1)
    /// Requests in flight and the sockets watched, for `close()`.
    private var transfers: [ObjectIdentifier: Transfer] = [:]
    private var polls: [UnsafeMutablePointer<uv_poll_t>] = []
    private var closed = false

    private static let initialised: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    public init(loop: EventLoop, settings: Settings = Settings()) {
        self.loop = loop
        self.settings = settings
    }

    /// Sends `request` and waits for the whole response; from any task. In
    /// a traced task, in an HTTP client span (its host, never its URL's
    /// path, which for Web Push is the device's capability).
    public func send(_ request: Request) async -> Result<Response, Failure> {
        guard let tracer = RecordedTrace.tracer else {
            // An unrecorded trace still passes its decision on.
            guard request.propagatesTrace, let parent = InstrumentationContext.current?.traceParent else { return await transfer(request) }
            return await transfer(Self.carrying(parent, request))
        }
        return await tracer.withSpan(request.method, ofKind: .client) { span in
            let request = span.context.traceParent.map { request.propagatesTrace ? Self.carrying($0, request) : request } ?? request
            let result = await transfer(request)
            guard span.isRecording else { return result }
            var attributes: SpanAttributes = ["http.request.method": .string(request.method)]
            if let url = URL(string: request.url), let host = url.host {
                attributes.set("server.address", value: .string(host))
                if let port = url.port { attributes.set("server.port", value: .int64(Int64(port))) }
            }
            switch result {
            case .success(let response):
                attributes.set("http.response.status_code", value: .int64(Int64(response.status)))
                attributes.set("network.protocol.version", value: .string(response.httpVersion))
                if response.status >= 400 { span.setStatus(SpanStatus(code: .error)) }
            case .failure(let failure):
                attributes.set("error.type", value: .string(failure.refusedAddress ? "refused_address" : "transport"))
                span.setStatus(SpanStatus(code: .error, message: failure.description))
            }
            span.attributes = attributes
            return result
        }
    }

    /// `request` with W3C Trace Context's headers for `parent`.
    private static func carrying(_ parent: TraceParent, _ request: Request) -> Request {
        var request = request
        request.headers.append(("traceparent", parent.header))
        if let state = parent.traceState { request.headers.append(("tracestate", state)) }
        return request
    }

    private func transfer(_ request: Request) async -> Result<Response, Failure> {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result<Response, Failure>, Never>) in
            let transfer = Transfer(request: request, continuation: continuation, limit: settings.maxResponseBytes)
            if loop.inLoopThread {
                start(transfer)
            } else {
                loop.enqueue { self.start(transfer) }
            }
        }
    }

    /// Fails what is in flight and lets go of libcurl's handles and the
    /// loop's: before the loop stops. Call it on the loop thread.
    public func close() {
        loop.assertInLoopThread()
        guard !closed else { return }
        closed = true
        guard let multi else {
            timer.deallocate()
            return
        }
        for transfer in transfers.values {
            if let handle = transfer.handle { curl_multi_remove_handle(multi, handle) }
            transfer.cleanUp()
            transfer.finish(.failure(Failure(description: "the server is stopping")))
            Unmanaged.passUnretained(transfer).release()
        }
        transfers.removeAll()
        curl_multi_cleanup(multi)
        self.multi = nil
        for poll in polls { closeHandle(poll) }
        polls.removeAll()
        uv_timer_stop(timer)
        closeHandle(timer)
    }

    private func closeHandle<Handle>(_ handle: UnsafeMutablePointer<Handle>) {
        uv_close(UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self)) { handle in
            UnsafeMutableRawPointer(handle!).deallocate()
        }
    }

    // MARK: On the loop thread

    private func startMulti() -> UnsafeMutableRawPointer? {
        if let multi { return multi }
        guard Self.initialised, let made = curl_multi_init() else { return nil }
        multi = made
        uv_timer_init(loop.uv, timer)
        timer.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = huddle_curl_multi_set_pointer(made, CURLMOPT_SOCKETDATA, context)
        _ = huddle_curl_multi_set_pointer(made, CURLMOPT_TIMERDATA, context)
        _ = huddle_curl_multi_set_socket_callback(made) { _, socket, what, context, socketContext in
            HTTPClient.from(context).watch(socket, what: what, poll: socketContext)
            return 0
        }
        _ = huddle_curl_multi_set_timer_callback(made) { _, milliseconds, context in
            let client = HTTPClient.from(context)
            if milliseconds < 0 {
                uv_timer_stop(client.timer)
            } else {
                uv_timer_start(
                    client.timer,
                    { timer in
                        let client = HTTPClient.from(timer!.pointee.data)
                        client.act(on: CURL_SOCKET_BAD, events: 0)
                    }, UInt64(milliseconds), 0)
            }
            return 0
        }
        return made
    }

    private static func from(_ context: UnsafeMutableRawPointer?) -> HTTPClient {
        Unmanaged<HTTPClient>.fromOpaque(context!).takeUnretainedValue()
    }

    private func start(_ transfer: Transfer) {
        loop.assertInLoopThread()
        guard !transfer.request.headers.contains(where: { $0.name.contains(where: \.isNewline) || $0.value.contains(where: \.isNewline) })
        else { return transfer.finish(.failure(Failure(description: "a header with a line break"))) }
        guard !closed, let multi = startMulti(), let handle = curl_easy_init() else {
            return transfer.finish(.failure(Failure(description: "libcurl could not start")))
        }
        transfer.handle = handle
        let request = transfer.request
        transfer.allowsPrivateNetworks = settings.allowsPrivateNetworks || request.isTrusted
        _ = huddle_curl_set_string(handle, CURLOPT_URL, request.url)
        _ = huddle_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, transfer.allowsPrivateNetworks ? "https,http" : "https")
        // A proxy from the environment would be the address checked, not
        // the destination: push goes direct.
        _ = huddle_curl_set_string(handle, CURLOPT_PROXY, "")
        _ = huddle_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, request.method)
        if request.method != "GET" {
            _ = huddle_curl_set_long(handle, CURLOPT_POSTFIELDSIZE, request.body.count)
            request.body.withUnsafeBufferPointer { body in
                _ = huddle_curl_set_pointer(
                    handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: body.baseAddress ?? UnsafePointer(bitPattern: 1)!))
            }
        }
        var headers: UnsafeMutablePointer<curl_slist>?
        // libcurl would otherwise add its own form type, and wait for 100-continue.
        for header in request.headers + [("Expect", "")] {
            headers = curl_slist_append(headers, header.value.isEmpty ? "\(header.name):" : "\(header.name): \(header.value)")
        }
        if request.headers.contains(where: { $0.name.lowercased() == "content-type" }) == false {
            headers = curl_slist_append(headers, "Content-Type:")
        }
        transfer.headerList = headers
        _ = huddle_curl_set_list(handle, CURLOPT_HTTPHEADER, headers)
        _ = huddle_curl_set_long(handle, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS)
        // A request to a host whose HTTP/2 connection is still being made
        // waits to share it rather than open another (a TLS handshake each).
        _ = huddle_curl_set_long(handle, CURLOPT_PIPEWAIT, 1)
        _ = huddle_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = huddle_curl_set_long(handle, CURLOPT_TIMEOUT_MS, Int(settings.timeout.milliseconds))
        _ = huddle_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(settings.connectTimeout.milliseconds))
        if let authorities = settings.certificateAuthorities { _ = huddle_curl_set_string(handle, CURLOPT_CAINFO, authorities) }
        _ = huddle_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, transfer.errorText)
        let context = Unmanaged.passRetained(transfer).toOpaque()
        _ = huddle_curl_set_pointer(handle, CURLOPT_PRIVATE, context)
        _ = huddle_curl_set_pointer(handle, CURLOPT_WRITEDATA, context)
        _ = huddle_curl_set_pointer(handle, CURLOPT_HEADERDATA, context)
        _ = huddle_curl_set_pointer(handle, CURLOPT_OPENSOCKETDATA, context)
        _ = huddle_curl_set_io_callback(handle, CURLOPT_WRITEFUNCTION) { buffer, size, count, context in
            Transfer.from(context).received(body: UnsafeRawBufferPointer(start: buffer, count: size * count))
        }
        _ = huddle_curl_set_io_callback(handle, CURLOPT_HEADERFUNCTION) { buffer, size, count, context in
            Transfer.from(context).received(header: UnsafeRawBufferPointer(start: buffer, count: size * count))
        }
        _ = huddle_curl_set_open_socket_callback(handle) { context, _, address in
            guard let address else { return CURL_SOCKET_BAD }
            let transfer = Transfer.from(context)
            let permitted =
                transfer.allowsPrivateNetworks
                || withUnsafeMutablePointer(to: &address.pointee.addr) { NetworkAddress.isPublic($0) }
            guard permitted else {
                transfer.refusedAddress = true
                return CURL_SOCKET_BAD
            }
            return socket(address.pointee.family, address.pointee.socktype, address.pointee.protocol)
        }
        guard curl_multi_add_handle(multi, handle) == CURLM_OK else {
            Unmanaged<Transfer>.fromOpaque(context).release()
            transfer.cleanUp()
            return transfer.finish(.failure(Failure(description: "libcurl refused the request")))
        }
        transfers[ObjectIdentifier(transfer)] = transfer
    }

    /// libcurl's wish for `socket`: watch for reading, writing, both, or no more.
    private func watch(_ socket: curl_socket_t, what: Int32, poll existing: UnsafeMutableRawPointer?) {
        var poll = existing?.assumingMemoryBound(to: uv_poll_t.self)
        if what == CURL_POLL_REMOVE {
            if let poll {
                uv_poll_stop(poll)
                polls.removeAll { $0 == poll }
                closeHandle(poll)
                curl_multi_assign(multi, socket, nil)
            }
            return
        }
        if poll == nil {
            let made = UnsafeMutablePointer<uv_poll_t>.allocate(capacity: 1)
            guard uv_poll_init_socket(loop.uv, made, socket) == 0 else {
                // libuv cannot watch it: the transfer on it times out.
                made.deallocate()
                return
            }
            made.pointee.data = Unmanaged.passUnretained(self).toOpaque()
            curl_multi_assign(multi, socket, made)
            polls.append(made)
            poll = made
        }
        var events: Int32 = 0
        if what & CURL_POLL_IN != 0 { events |= Int32(UV_READABLE.rawValue) }
        if what & CURL_POLL_OUT != 0 { events |= Int32(UV_WRITABLE.rawValue) }
        uv_poll_start(poll, events) { poll, status, events in
            let client = HTTPClient.from(poll!.pointee.data)
            var flags: Int32 = 0
            if status < 0 {
                flags = CURL_CSELECT_ERR
            } else {
                if events & Int32(UV_READABLE.rawValue) != 0 { flags |= CURL_CSELECT_IN }
                if events & Int32(UV_WRITABLE.rawValue) != 0 { flags |= CURL_CSELECT_OUT }
            }
            var descriptor: uv_os_fd_t = -1
            uv_fileno(UnsafeMutableRawPointer(poll!).assumingMemoryBound(to: uv_handle_t.self), &descriptor)
            client.act(on: descriptor, events: flags)
        }
    }

    /// Lets libcurl work on `socket` (or its timeouts), then finishes what completed.
    private func act(on socket: curl_socket_t, events: Int32) {
        guard let multi else { return }
        var running: Int32 = 0
        _ = curl_multi_socket_action(multi, socket, events, &running)
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            var context: UnsafeMutableRawPointer?
            _ = huddle_curl_get_pointer(handle, CURLINFO_PRIVATE, &context)
            curl_multi_remove_handle(multi, handle)
            guard let context else { continue }
            let transfer = Unmanaged<Transfer>.fromOpaque(context).takeRetainedValue()
            transfers[ObjectIdentifier(transfer)] = nil
            transfer.complete(code)
        }
    }

    /// One request in flight; touched on the loop thread only.
    private final class Transfer: @unchecked Sendable {
        let request: Request
        let continuation: CheckedContinuation<Result<Response, Failure>, Never>
        let limit: Int
        var handle: UnsafeMutableRawPointer?
        var headerList: UnsafeMutablePointer<curl_slist>?
        var allowsPrivateNetworks = false
        var refusedAddress = false
        var body: [UInt8] = []
        var headers: [String: String] = [:]
        var tooLarge = false
        let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))

        init(request: Request, continuation: CheckedContinuation<Result<Response, Failure>, Never>, limit: Int) {
            self.request = request
            self.continuation = continuation
            self.limit = limit
            errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        }

        deinit { errorText.deallocate() }

        static func from(_ context: UnsafeMutableRawPointer?) -> Transfer {
            Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
        }

        func received(body chunk: UnsafeRawBufferPointer) -> Int {
            guard body.count + chunk.count <= limit else {
                tooLarge = true
                return 0
            }
            body += chunk
            return chunk.count
        }

        func received(header line: UnsafeRawBufferPointer) -> Int {
            let text = String(decoding: line, as: UTF8.self)
            // A new response (after a 100 Continue, say) starts afresh.
            if text.hasPrefix("HTTP/") { headers = [:] }
            if let colon = text.firstIndex(of: ":") {
                headers[text[..<colon].lowercased()] = text[text.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            }
            return line.count
        }

        func complete(_ code: CURLcode) {
            guard let handle else { return }
            var status = 0
            _ = huddle_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &status)
            var version = 0
            _ = huddle_curl_get_long(handle, CURLINFO_HTTP_VERSION, &version)
            let detail = errorText.pointee != 0 ? String(cString: errorText) : String(cString: curl_easy_strerror(code))
            cleanUp()
            if code == CURLE_OK {
                let response = Response(
                    status: status, headers: headers, body: body, httpVersion: version == CURL_HTTP_VERSION_2_0 ? "2" : "1.1")
                finish(.success(response))
            } else if refusedAddress {
                finish(.failure(Failure(description: "the address is not public", refusedAddress: true)))
            } else if tooLarge {
                finish(.failure(Failure(description: "the response was larger than \(limit) bytes")))
            } else {
                finish(.failure(Failure(description: detail)))
            }
        }

        func cleanUp() {
            if let handle { curl_easy_cleanup(handle) }
            handle = nil
            curl_slist_free_all(headerList)
            headerList = nil
        }

        func finish(_ result: Result<Response, Failure>) {
            continuation.resume(returning: result)
        }
    }
}
