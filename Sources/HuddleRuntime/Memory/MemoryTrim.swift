import Glibc
import Synchronization

/// Gives freed memory back to the system after a large response.
///
/// glibc keeps what a large execution freed in its arenas (one per thread
/// that allocated), so a server's resident size stays at its peak long
/// after the peak: six large responses at once left 5.4 GB resident.
/// `malloc_trim` returns the arenas' free pages. It costs a few
/// milliseconds, so it runs only after a response of at least
/// `threshold` bytes (or one a limit stopped), and at most once a second.
public enum MemoryTrim {
    /// The response size from which a trim follows.
    public static let threshold = 4 << 20

    private static let lastTrim = Atomic<Int64>(0)

    /// glibc's `malloc_trim`, looked up at run time: not in Swift's Glibc
    /// module, and absent from other C libraries.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()

    /// After a response of `bytes` (or one a limit stopped): trims if it
    /// was large and the last trim was over a second ago. True when it trimmed.
    @discardableResult
    public static func afterResponse(bytes: Int, stoppedByLimit: Bool = false) -> Bool {
        guard bytes >= threshold || stoppedByLimit, let mallocTrim else { return false }
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        let now = Int64(time.tv_sec)
        let last = lastTrim.load(ordering: .relaxed)
        guard now - last >= 1, lastTrim.compareExchange(expected: last, desired: now, ordering: .relaxed).exchanged else { return false }
        _ = mallocTrim(0)
        return true
    }
}
