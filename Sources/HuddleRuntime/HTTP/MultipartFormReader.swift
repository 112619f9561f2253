import Synchronization

/// Reads a streamed multipart/form-data body a part at a time, each part's
/// content as it arrives: what a handler of uploads pulls from, so a file
/// is passed on as it comes rather than held.
public final class MultipartFormReader: Sendable {
    private let body: HTTPRequestBodyStream
    /// The parser and the events it gave that were not taken yet. The
    /// reader is pulled by one task at a time (its request's), so the lock
    /// is never contended; it is what makes the reader Sendable.
    private let state: Mutex<State>

    private struct State {
        var parser: MultipartParser
        var events: [MultipartParser.Event] = []
    }

    public init(body: HTTPRequestBodyStream, boundary: String, limits: MultipartParser.Limits) {
        self.body = body
        state = Mutex(State(parser: MultipartParser(boundary: boundary, limits: limits)))
    }

    /// The next part's head, after skipping what is left of the current
    /// part; nil after the closing delimiter.
    public func nextPart() async throws(MultipartParser.Failure) -> MultipartParser.PartHead? {
        while true {
            switch try await nextEvent(consuming: true) {
            case .part(let head): return head
            case .content: continue
            case .end: return nil
            }
        }
    }

    /// The next bytes of the current part; nil at its end (the next part
    /// or the closing delimiter is left for `nextPart`).
    public func nextContent() async throws(MultipartParser.Failure) -> [UInt8]? {
        switch try await nextEvent(consuming: false) {
        case .content(let bytes):
            return bytes
        case .part, .end:
            return nil
        }
    }

    /// Reads what is left of the body after the closing delimiter,
    /// dropping it; stops early (the connection then closes after its
    /// answer) past `atMost` bytes.
    public func readToEnd(atMost: Int) async throws(MultipartParser.Failure) {
        var read = 0
        while read <= atMost {
            let bytes: [UInt8]?
            do throws(HTTPError) {
                bytes = try await body.next()
            } catch {
                throw MultipartParser.Failure(status: error.status, reason: error.reason)
            }
            guard let bytes else { return }
            read += bytes.count
        }
    }

    /// The next event; one that is not content stays queued unless `consuming`.
    private func nextEvent(consuming: Bool) async throws(MultipartParser.Failure) -> MultipartParser.Event {
        while true {
            let queued = state.withLock { state -> MultipartParser.Event? in
                guard let event = state.events.first else { return nil }
                if case .content = event {
                    state.events.removeFirst()
                } else if consuming {
                    state.events.removeFirst()
                }
                return event
            }
            if let queued { return queued }
            let bytes: [UInt8]?
            do throws(HTTPError) {
                bytes = try await body.next()
            } catch {
                throw MultipartParser.Failure(status: error.status, reason: error.reason)
            }
            try state.withLock { state throws(MultipartParser.Failure) in
                guard let bytes else {
                    // The closing delimiter stays queued once read; without
                    // it the body was cut short.
                    if !state.parser.isComplete {
                        throw MultipartParser.Failure(status: 400, reason: "the body ended before its closing delimiter")
                    }
                    state.events.append(.end)
                    return
                }
                state.events += try state.parser.feed(bytes)
            }
        }
    }
}
