import Synchronization

/// Lines that several threads write, read once they are done.
package final class Log: Sendable {
    package init() {}

    private let entries = Mutex<[String]>([])
    package func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    package var all: [String] { entries.withLock { $0 } }
}
