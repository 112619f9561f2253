import Synchronization

/// A request body its handler reads as it arrives (an upload), rather than
/// one the server collects whole first. The connection appends what it
/// reads; while more than `bufferLimit` bytes wait for the handler, it
/// stops reading the socket, so a slow handler slows the client down
/// instead of filling memory, and the body timeout does not run meanwhile.
public final class HTTPRequestBodyStream: Sendable, Equatable {
    /// Bytes read ahead of the handler before the connection stops reading.
    public let bufferLimit: Int
    private let state = Mutex(State())
    /// Tells the connection it may read again.
    private let drained: @Sendable () -> Void
    /// Tells the connection the handler wants the body (it answers a
    /// client waiting with `Expect: 100-continue`); taken at the first read.
    private let firstRead: Mutex<(@Sendable () -> Void)?>

    private struct State {
        var chunks: [[UInt8]] = []
        var buffered = 0
        var end: End?
        var waiter: CheckedContinuation<Void, Never>?
    }

    private enum End {
        case finished
        case failed(HTTPError)
    }

    init(bufferLimit: Int, drained: @escaping @Sendable () -> Void, firstRead: (@Sendable () -> Void)? = nil) {
        self.bufferLimit = bufferLimit
        self.drained = drained
        self.firstRead = Mutex(firstRead)
    }

    public static func == (left: HTTPRequestBodyStream, right: HTTPRequestBodyStream) -> Bool { left === right }

    /// The next bytes of the body, in order; nil once it is all read. Throws
    /// what ended it early: 413 past its limit, 408 when the client
    /// stopped sending, 400 when the connection closed.
    public func next() async throws(HTTPError) -> [UInt8]? {
        if let wanted = firstRead.withLock({ first in
            defer { first = nil }
            return first
        }) {
            wanted()
        }
        while true {
            enum Step {
                case chunk([UInt8], drained: Bool)
                case end
                case failed(HTTPError)
                case wait
            }
            let step = state.withLock { state -> Step in
                if !state.chunks.isEmpty {
                    let chunk = state.chunks.removeFirst()
                    let wasFull = state.buffered > bufferLimit
                    state.buffered -= chunk.count
                    return .chunk(chunk, drained: wasFull && state.buffered <= bufferLimit)
                }
                switch state.end {
                case .finished: return .end
                case .failed(let error): return .failed(error)
                case nil: return .wait
                }
            }
            switch step {
            case .chunk(let chunk, let wasDrained):
                if wasDrained { drained() }
                return chunk
            case .end:
                return nil
            case .failed(let error):
                throw error
            case .wait:
                await withCheckedContinuation { continuation in
                    let ready = state.withLock { state -> Bool in
                        if !state.chunks.isEmpty || state.end != nil { return true }
                        state.waiter = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            }
        }
    }

    /// Whether the whole body arrived (whether or not the handler read it
    /// all): only then can the connection go on to a next request.
    public var arrivedWhole: Bool {
        state.withLock { state in
            if case .finished? = state.end { return true }
            return false
        }
    }

    /// More than `bufferLimit` bytes wait for the handler.
    var isFull: Bool {
        state.withLock { $0.buffered > bufferLimit }
    }

    func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        wake { state in
            guard state.end == nil else { return }
            // Small reads join the last piece waiting: a client trickling
            // bytes cannot make the buffer a great many small arrays.
            if let last = state.chunks.indices.last, state.chunks[last].count < Self.joinBelow {
                state.chunks[last] += bytes
            } else {
                state.chunks.append(bytes)
            }
            state.buffered += bytes.count
        }
    }

    /// Pieces shorter than this take the next read's bytes too.
    private static let joinBelow = 16 * 1024

    func finish() {
        wake { state in if state.end == nil { state.end = .finished } }
    }

    func fail(_ error: HTTPError) {
        wake { state in if state.end == nil { state.end = .failed(error) } }
    }

    private func wake(_ change: (inout State) -> Void) {
        let waiter = state.withLock { state in
            change(&state)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }
}
