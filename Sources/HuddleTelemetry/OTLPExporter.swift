import CLibCurl
import Foundation
import HuddleRuntime
import Synchronization

/// Exports spans over OTLP/HTTP in batches, from a thread of its own: a
/// span's end only queues it, and when the queue is full (a slow or absent
/// collector) new spans are dropped and counted, so tracing never makes a
/// request wait. A batch goes when it is full or when its first span has
/// waited `scheduleDelay`; a failed export is retried while the batch's
/// time allows, as OTLP asks for statuses 429, 502, 503 and 504.
public final class OTLPExporter: SpanProcessor, @unchecked Sendable {
    public let settings: OTLPSettings
    private let logger: Logger
    /// Guards everything below it, and wakes the export thread and the
    /// callers of `forceFlush`.
    private let condition = NSCondition()
    private var queue: [FinishedSpan] = []
    /// Spans ever queued, and ever taken off the queue (exported or
    /// dropped): a flush waits for the second to reach what the first was.
    private var enqueued = 0
    private var taken = 0
    private var flushTarget = 0
    private var running = false
    private var stopping = false
    private var stopDeadline: ContinuousClock.Instant?
    /// Spans of the batch being sent; and whether a stop that ran out of
    /// time has counted them (and the queue) as dropped already.
    private var inFlight = 0
    private var abandoned = false
    private let stopped = DispatchSemaphore(value: 0)
    private var lastFailureLogged: ContinuousClock.Instant?

    /// Spans the collector accepted, and spans dropped: because the queue
    /// was full, or because their export failed or ran out of time.
    public let exportedSpans = Atomic<Int>(0)
    public let droppedSpans = Atomic<Int>(0)
    public let failedExports = Atomic<Int>(0)

    private static let curlReady: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    public init(settings: OTLPSettings, logger: Logger = Logger()) {
        self.settings = settings
        self.logger = logger
    }

    /// Starts the export thread; once. Without libcurl nothing starts, and
    /// every span is dropped and counted.
    public func start() {
        // libcurl's global set-up, before a thread of ours could race another's.
        guard Self.curlReady else {
            return logger.log(.error, "traces cannot be exported: libcurl could not start")
        }
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
        if queue.count >= settings.maxQueueSize || stopping || !running {
            condition.unlock()
            droppedSpans.add(1, ordering: .relaxed)
            return
        }
        queue.append(span)
        enqueued += 1
        // The thread sleeps on an empty queue: the first span starts its
        // batch's wait, and a full batch ends it.
        if queue.count == 1 || queue.count == settings.maxBatchSize { condition.signal() }
        condition.unlock()
    }

    /// Exports the spans queued before the call, and returns when they
    /// have gone (or been dropped), or after the export timeout.
    public func forceFlush() {
        condition.lock()
        defer { condition.unlock() }
        let target = enqueued
        guard running, taken < target else { return }
        flushTarget = max(flushTarget, target)
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: settings.exportTimeout.seconds)
        while taken < target && running {
            if !condition.wait(until: deadline) { break }
        }
    }

    /// Exports what is queued, within `time`, and stops the thread: when
    /// the server stops. What cannot go in that time is dropped, and
    /// counted, so that a collector that is away does not hold the
    /// process's exit.
    public func shutdown(within time: Duration = .seconds(5)) {
        condition.lock()
        guard running, !stopping else { return condition.unlock() }
        stopping = true
        stopDeadline = ContinuousClock.now + time
        condition.broadcast()
        condition.unlock()
        guard stopped.wait(timeout: .now() + time.seconds + 1) == .timedOut else { return }
        // The collector held an export past the time: what was not sent is counted now.
        condition.lock()
        if !abandoned {
            abandoned = true
            droppedSpans.add(queue.count + inFlight, ordering: .relaxed)
            taken += queue.count + inFlight
            queue.removeAll()
            condition.broadcast()
        }
        condition.unlock()
    }

    // MARK: The export thread

    private func exportLoop() {
        guard let handle = curl_easy_init() else {
            logger.log(.error, "traces cannot be exported: libcurl could not start")
            condition.lock()
            droppedSpans.add(queue.count, ordering: .relaxed)
            taken += queue.count
            queue.removeAll()
            condition.unlock()
            return markStopped()
        }
        defer { curl_easy_cleanup(handle) }
        var headerList: UnsafeMutablePointer<curl_slist>?
        // An empty value would make libcurl remove the field rather than send it.
        for header in settings.headers where !header.value.isEmpty {
            headerList = curl_slist_append(headerList, "\(header.name): \(header.value)")
        }
        // libcurl would otherwise wait for 100-continue before a large batch.
        for header in ["Content-Type: application/x-protobuf", "Expect:"] { headerList = curl_slist_append(headerList, header) }
        defer { curl_slist_free_all(headerList) }
        configure(handle, headers: headerList)
        while true {
            condition.lock()
            var batchDue: Date?
            while queue.count < settings.maxBatchSize && flushTarget <= taken && !stopping {
                if queue.isEmpty {
                    batchDue = nil
                    condition.wait()
                } else {
                    // The first span's wait for its batch starts when it is seen.
                    let due = batchDue ?? Date(timeIntervalSinceNow: settings.scheduleDelay.seconds)
                    batchDue = due
                    if !condition.wait(until: due) { break }
                }
            }
            if stopping, let deadline = stopDeadline, ContinuousClock.now >= deadline {
                // Stopping, and out of time: what is left is dropped, and counted.
                droppedSpans.add(queue.count, ordering: .relaxed)
                taken += queue.count
                queue.removeAll()
            }
            let batch = Array(queue.prefix(settings.maxBatchSize))
            queue.removeFirst(batch.count)
            inFlight = batch.count
            condition.unlock()
            let sent = batch.isEmpty || export(batch, handle)
            condition.lock()
            inFlight = 0
            if !abandoned {
                taken += batch.count
                if sent {
                    exportedSpans.add(batch.count, ordering: .relaxed)
                } else {
                    droppedSpans.add(batch.count, ordering: .relaxed)
                    failedExports.add(1, ordering: .relaxed)
                }
            }
            condition.broadcast()
            let finishing = stopping && queue.isEmpty
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
        _ = huddle_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(min(settings.timeout.seconds, 10) * 1000))
        _ = huddle_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        if let authority = settings.certificateAuthority { _ = huddle_curl_set_string(handle, CURLOPT_CAINFO, authority) }
        if let certificate = settings.clientCertificate { _ = huddle_curl_set_string(handle, CURLOPT_SSLCERT, certificate) }
        if let key = settings.clientKey { _ = huddle_curl_set_string(handle, CURLOPT_SSLKEY, key) }
        // The collector's answer is a protobuf we do not need; only its status counts.
        _ = huddle_curl_set_io_callback(handle, CURLOPT_WRITEFUNCTION) { _, size, count, _ in size * count }
    }

    /// Sends one batch, retrying a retryable failure with growing pauses
    /// while the export's time allows, and a stop's, should one come
    /// meanwhile; true when the collector took it.
    private func export(_ batch: [FinishedSpan], _ handle: UnsafeMutableRawPointer) -> Bool {
        let body = OTLPTraceRequest.encode(batch, resource: settings.resource, scopeVersion: HuddleVersion.version)
        let exportEnds = ContinuousClock.now + settings.exportTimeout
        /// The export's end, or the stop's when that is sooner.
        func giveUp() -> ContinuousClock.Instant {
            condition.lock()
            defer { condition.unlock() }
            return stopDeadline.map { min($0, exportEnds) } ?? exportEnds
        }
        var pause = Duration.milliseconds(250)
        var failure = ""
        while true {
            let left = giveUp() - ContinuousClock.now
            guard left > .zero else { break }
            let attempt = min(settings.timeout, left)
            let (status, curlCode) = body.withUnsafeBufferPointer { bytes in
                _ = huddle_curl_set_long(handle, CURLOPT_TIMEOUT_MS, max(1, Int(attempt.seconds * 1000)))
                _ = huddle_curl_set_long(handle, CURLOPT_POSTFIELDSIZE, bytes.count)
                _ = huddle_curl_set_pointer(handle, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                let code = curl_easy_perform(handle)
                var status = 0
                _ = huddle_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &status)
                return (status, code)
            }
            if curlCode == CURLE_OK && (200..<300).contains(status) { return true }
            failure = curlCode == CURLE_OK ? "the collector answered \(status)" : String(cString: curl_easy_strerror(curlCode))
            let retryable = curlCode != CURLE_OK || [429, 502, 503, 504].contains(status)
            guard retryable, ContinuousClock.now + pause < giveUp() else { break }
            // A pause a stop ends at once.
            condition.lock()
            if !stopping { _ = condition.wait(until: Date(timeIntervalSinceNow: pause.seconds)) }
            condition.unlock()
            pause *= 2
        }
        // One line a minute at most: a collector that is down would otherwise fill the log.
        let now = ContinuousClock.now
        if lastFailureLogged.map({ now - $0 > .seconds(60) }) ?? true {
            lastFailureLogged = now
            logger.log(
                .warning, "traces not exported: \(failure)",
                ["endpoint": .string(settings.endpointForLogs), "spans": .int(batch.count)])
        }
        return false
    }
}
