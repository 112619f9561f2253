import Foundation
import HuddleCore
import Synchronization

/// Stops the private PostgreSQL that `huddle serve` started however the
/// process ends, not only when `run` returns:
/// - SIGTERM or SIGINT while the server is still starting (migrating,
///   seeding), before the event loops watch for them: the cluster is
///   stopped and the process exits with 128 + the signal, as the default
///   action would have, minus the orphaned server;
/// - a shutdown that does not finish within its deadline (a handler that
///   never returns): the cluster is stopped and the process exits 1.
final class ClusterGuard: Sendable {
    /// Set once the database is resolved (and a private cluster started).
    private let location = Mutex<DatabaseLocation?>(nil)
    private let isServing = Atomic<Bool>(false)
    private let shutdownArmed = Atomic<Bool>(false)

    /// The signal received while starting; written by the signal handler,
    /// read by the watcher thread.
    private nonisolated(unsafe) static var received: Int32 = 0

    /// Watches SIGTERM and SIGINT until `serving()`, from before the
    /// cluster starts: from then on each event loop's own watcher (which
    /// replaces this handler) drains the server.
    init() {
        let handler: @convention(c) (Int32) -> Void = { signal in ClusterGuard.received = signal }
        signal(SIGTERM, handler)
        signal(SIGINT, handler)
        Thread { [self] in
            while !isServing.load(ordering: .acquiring) {
                let signal = ClusterGuard.received
                // A signal during initdb waits for the cluster it would orphan.
                if signal != 0, let location = location.withLock({ $0 }) {
                    FileHandle.standardError.write(Data("huddle: stopping (signal \(signal) while starting)\n".utf8))
                    location.stopPrivateCluster()
                    exit(128 + signal)
                }
                usleep(20_000)
            }
        }.start()
    }

    /// The signal that came while starting, if one did.
    var startupSignal: Int32? {
        let signal = ClusterGuard.received
        return signal == 0 ? nil : signal
    }

    /// The database this process uses, with the private cluster it may have started.
    func guardCluster(of location: DatabaseLocation) {
        self.location.withLock { $0 = location }
    }

    /// The event loops watch the signals now.
    func serving() {
        isServing.store(true, ordering: .releasing)
    }

    /// A shutdown began: if the process is still here after `deadline`,
    /// what holds it will not let go; the cluster is stopped all the same.
    func shutdownBegan(deadline: Duration) {
        guard !shutdownArmed.exchange(true, ordering: .acquiringAndReleasing),
            let location = location.withLock({ $0 })
        else { return }
        Thread {
            Thread.sleep(forTimeInterval: Double(deadline.components.seconds) + Double(deadline.components.attoseconds) / 1e18)
            FileHandle.standardError.write(Data("huddle: shutdown did not finish within \(deadline); stopping anyway\n".utf8))
            location.stopPrivateCluster()
            exit(1)
        }.start()
    }

}
