import Foundation
import Testing

/// A bound for a test that hangs, never for one that is slow: on a busy
/// 2-core machine every suite runs at once, and a test that takes a few
/// seconds alone may wait minutes for a core. A pass must not depend on
/// the machine's speed; a hang must still end the run.
///
/// A hang is what no cancellation reaches (a thread waiting for a loop that
/// never stops), so a time limit that cancels the test cannot end it. Past
/// the bound, a watchdog thread writes which test hung and stops the test
/// process: the run fails then, with the name, rather than waiting for
/// CI's own limit an hour later.
package struct HangGuard: TestTrait, SuiteTrait, TestScoping {
    package static let limit = Duration.seconds(600)

    package var isRecursive: Bool { true }

    /// One watchdog per test case; a suite's is its tests'.
    package func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    @concurrent package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @concurrent @Sendable () async throws -> Void
    ) async throws {
        let finished = DispatchSemaphore(value: 0)
        let name = "\(test.name) (\(test.sourceLocation))"
        let thread = Thread {
            let seconds = Double(Self.limit.components.seconds)
            guard finished.wait(timeout: .now() + seconds) == .timedOut else { return }
            let line = "hang guard: \(name) has run for \(Self.limit) and is taken for a hang; the test process stops here\n"
            FileHandle.standardError.write(Data(line.utf8))
            abort()
        }
        thread.name = "hang-guard"
        thread.start()
        defer { finished.signal() }
        try await function()
    }
}

extension Trait where Self == HangGuard {
    package static var hangGuard: Self { HangGuard() }
}
