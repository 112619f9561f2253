import COpenSSL
import Synchronization

/// Apollo's Automatic Persisted Queries: query texts by their SHA-256, so a
/// client may send the hash alone once the server has seen the text.
/// Bounded; the oldest entry goes first. Shared by the loops of a process.
final class PersistedQueries: Sendable {
    let capacity: Int
    private let state: Mutex<(queries: [String: String], order: [String], oldest: Int)>

    init(capacity: Int) {
        self.capacity = capacity
        state = Mutex(([:], [], 0))
    }

    func query(forHash hash: String) -> String? {
        state.withLock { $0.queries[hash] }
    }

    func store(_ query: String, hash: String) {
        guard capacity > 0 else { return }
        state.withLock { state in
            guard state.queries[hash] == nil else { return }
            if state.queries.count >= capacity {
                // `order` is a ring over `capacity` slots once full.
                let evicted = state.order[state.oldest]
                state.queries[evicted] = nil
                state.order[state.oldest] = hash
                state.oldest = (state.oldest + 1) % capacity
            } else {
                state.order.append(hash)
            }
            state.queries[hash] = query
        }
    }

    /// Lower-case hexadecimal SHA-256 of the UTF-8 text.
    static func sha256(_ text: String) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBufferPointer { input in
            _ = SHA256(input.baseAddress, input.count, &digest)
        }
        let hex = Array("0123456789abcdef".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(64)
        for byte in digest {
            output.append(hex[Int(byte >> 4)])
            output.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: output, as: UTF8.self)
    }
}
