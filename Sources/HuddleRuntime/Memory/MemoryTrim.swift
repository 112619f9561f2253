import Foundation
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
    /// was large, at most once a second; a trim due within the second is
    /// made once at its end, so that the last of several large responses
    /// finishing together is given back too.
    public static func afterResponse(bytes: Int, stoppedByLimit: Bool = false) {
        guard bytes >= threshold || stoppedByLimit, mallocTrim != nil else { return }
        let now = monotonicSeconds()
        let last = lastTrim.load(ordering: .relaxed)
        if now - last >= 1, lastTrim.compareExchange(expected: last, desired: now, ordering: .relaxed).exchanged {
            trim()
        } else if !trailingTrim.exchange(true, ordering: .acquiringAndReleasing) {
            Thread {
                sleep(1)
                trailingTrim.store(false, ordering: .releasing)
                lastTrim.store(monotonicSeconds(), ordering: .relaxed)
                trim()
            }.start()
        }
    }

    private static let trailingTrim = Atomic<Bool>(false)

    private static func trim() {
        _ = mallocTrim?(0)
    }

    private static func monotonicSeconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec)
    }
}
