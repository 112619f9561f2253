import CLibCurl
import Foundation
import HuddleRuntime
import Synchronization

/// Exports spans over OTLP/HTTP in batches, from a thread of its own: a
/// span's end only queues it, and when the queue is full (a slow or absent
/// collector) new spans are dropped and counted, so tracing never makes a
/// request wait. A batch goes when it is full or when its first span has
/// waited `scheduleDelay`; a failed export is retried while its time
/// allows, as OTLP asks for statuses 429, 502, 503 and 504.
public final class OTLPExporter: SpanProcessor, @unchecked Sendable {
    public let settings: OTLPSettings
    private let logger: Logger
    /// Guards everything below it, and wakes the export thread.
    private let condition = NSCondition()
    private var queue: [FinishedSpan] = []
    private var flushes = 0
    private var flushed = 0
    private var stopping = false
    private var running = false
    private let stopped = DispatchSemaphore(value: 0)
    private var lastFailureLogged: ContinuousClock.Instant?

    /// Spans the collector accepted, and spans dropped: because the queue
    /// was full, or because their export failed.
    public let exportedSpans = Atomic<Int>(0)
    public let droppedSpans = Atomic<Int>(0)
    public let failedExports = Atomic<Int>(0)

    public init(settings: OTLPSettings, logger: Logger = Logger()) {
        self.settings = settings
        self.logger = logger
    }

    /// Starts the export thread; once.
    public func start() {
        condition.lock()
        defer { condition.unlock() }
        guard !running, !stopping else { return }
        running = true
        let thread = Thread { [self] in
            exportLoop()
            stopped.signal()
        }
        thread.name = "huddle-otlp"
        thread.start()
    }

    public func spanEnded(_ span: FinishedSpan) {
        condition.lock()
        if queue.count >= settings.maxQueueSize || stopping {
            condition.unlock()
            droppedSpans.add(1, ordering: .relaxed)
            return
        }
        queue.append(span)
        // The thread sleeps on an empty queue: the first span starts its
        // batch's wait, and a full batch ends it.
        if queue.count == 1 || queue.count == settings.maxBatchSize { condition.signal() }
        condition.unlock()
    }

    /// Exports every span queued now, and returns when they have gone (or
    /// failed), or after the export timeout.
    public func forceFlush() {
        condition.lock()
        guard running else { return condition.unlock() }
        flushes += 1
        let wanted = flushes
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: settings.timeout.seconds * 2)
        while flushed < wanted && running {
            if !condition.wait(until: deadline) { break }
        }
        condition.unlock()
    }

    /// Exports what is queued and stops the thread: when the server stops.
    public func shutdown() {
        condition.lock()
        guard running, !stopping else { return condition.unlock() }
        stopping = true
        condition.broadcast()
        condition.unlock()
        _ = stopped.wait(timeout: .now() + settings.timeout.seconds * 2 + 1)
    }

    // MARK: The export thread

    private func exportLoop() {
        guard let handle = curl_easy_init() else {
            logger.log(.error, "traces cannot be exported: libcurl could not start")
            return markStopped()
        }
        defer { curl_easy_cleanup(handle) }
        var headerList: UnsafeMutablePointer<curl_slist>?
        for header in settings.headers + [("Content-Type", "application/x-protobuf"), ("Expect", "")] {
            headerList = curl_slist_append(headerList, header.1.isEmpty ? "\(header.0):" : "\(header.0): \(header.1)")
        }
        defer { curl_slist_free_all(headerList) }
        configure(handle, headers: headerList)
        while true {
            condition.lock()
            var deadline: Date?
            while queue.count < settings.maxBatchSize && flushed == flushes && !stopping {
                if queue.isEmpty {
                    deadline = nil
                    condition.wait()
                } else {
                    // The first span's wait for its batch starts when it is seen.
                    let due = deadline ?? Date(timeIntervalSinceNow: settings.scheduleDelay.seconds)
                    deadline = due
                    if !condition.wait(until: due) { break }
                }
            }
            let batch = Array(queue.prefix(settings.maxBatchSize))
            queue.removeFirst(batch.count)
            let flushing = flushes
            let finishing = stopping && queue.isEmpty
            condition.unlock()
            if !batch.isEmpty { export(batch, handle) }
            condition.lock()
            if queue.isEmpty {
                flushed = flushing
                condition.broadcast()
            }
            condition.unlock()
            if finishing { break }
        }
        markStopped()
    }

    private func markStopped() {
        condition.lock()
        running = false
        condition.broadcast()
        condition.unlock()
    }

    private func configure(_ handle: UnsafeMutableRawPointer, headers: UnsafeMutablePointer<curl_slist>?) {
        _ = huddle_curl_set_string(handle, CURLOPT_URL, settings.endpoint)
        _ = huddle_curl_set_list(handle, CURLOPT_HTTPHEADER, headers)
        _ = huddle_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = huddle_curl_set_long(handle, CURLOPT_TIMEOUT_MS, Int(settings.timeout.seconds * 1000))
        _ = huddle_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(min(settings.timeout.seconds, 10) * 1000))
        _ = huddle_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        if let authority = settings.certificateAuthority { _ = huddle_curl_set_string(handle, CURLOPT_CAINFO, authority) }
        if let certificate = settings.clientCertificate { _ = huddle_curl_set_string(handle, CURLOPT_SSLCERT, certificate) }
        if let key = settings.clientKey { _ = huddle_curl_set_string(handle, CURLOPT_SSLKEY, key) }
        // The collector's answer is a protobuf we do not need; only its status counts.
        _ = huddle_curl_set_io_callback(handle, CURLOPT_WRITEFUNCTION) { _, size, count, _ in size * count }
    }

    /// Sends one batch, retrying a retryable failure with growing pauses
    /// while the export's time allows; the spans are dropped if it never goes.
    private func export(_ batch: [FinishedSpan], _ handle: UnsafeMutableRawPointer) {
        let body = OTLPTraceRequest.encode(batch, resource: settings.resource, scopeVersion: HuddleVersion.version)
        let giveUp = ContinuousClock.now + settings.timeout
        var pause = Duration.milliseconds(250)
        var failure = ""
        while true {
            let (status, curlCode) = body.withUnsafeBufferPointer { bytes in
                _ = huddle_curl_set_long(handle, CURLOPT_POSTFIELDSIZE, bytes.count)
                _ = huddle_curl_set_pointer(handle, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                let code = curl_easy_perform(handle)
                var status = 0
                _ = huddle_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &status)
                return (status, code)
            }
            if curlCode == CURLE_OK && (200..<300).contains(status) {
                exportedSpans.add(batch.count, ordering: .relaxed)
                return
            }
            failure =
                curlCode == CURLE_OK ? "the collector answered \(status)" : String(cString: curl_easy_strerror(curlCode))
            let retryable = curlCode != CURLE_OK || [429, 502, 503, 504].contains(status)
            guard retryable, ContinuousClock.now + pause < giveUp, !isStopping else { break }
            Thread.sleep(forTimeInterval: pause.seconds)
            pause *= 2
        }
        failedExports.add(1, ordering: .relaxed)
        droppedSpans.add(batch.count, ordering: .relaxed)
        // One line a minute at most: a collector that is down would otherwise fill the log.
        let now = ContinuousClock.now
        if lastFailureLogged.map({ now - $0 > .seconds(60) }) ?? true {
            lastFailureLogged = now
            logger.log(
                .warning, "traces not exported: \(failure)",
                ["endpoint": .string(settings.endpoint), "spans_dropped": .int(droppedSpans.load(ordering: .relaxed))])
        }
    }

    private var isStopping: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopping
    }
}
