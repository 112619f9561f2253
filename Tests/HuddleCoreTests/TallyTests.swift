import Foundation
import HuddleCore
import HuddlePostgres
import HuddleRuntime
import PostgresTestSupport
import Synchronization
import Testing

/// Counted reads: each reader once per key and hour (whatever is written
/// meanwhile), the readers held within a bound, written a transaction a
/// tally, a failed tally tried again, what is held written when the writer
/// stops, old counts pruned.
@Suite struct TallyTests {
    static let views = Tally("views", statement: "unused")
    static let taps = Tally("taps", statement: "unused")
    static let noon = Date(timeIntervalSince1970: 1_764_331_200)  // 2025-11-28 12:00 UTC
    static var hour: Int64 { Int64(noon.timeIntervalSince1970) }

    /// A clock the test moves.
    final class Clock: Sendable {
        let now = Mutex(TallyTests.noon)
        var read: @Sendable () -> Date { { self.now.withLock { $0 } } }
    }

    @Test func aReaderCountsOncePerKeyAndHourEvenAcrossWrites() {
        let clock = Clock()
        let tallies = Tallies(capacity: 100, clock: clock.read)
        for _ in 0..<3 { tallies.count(Self.views, key: 1, by: .user(7)) }
        for _ in 0..<2 { tallies.count(Self.views, key: 1, by: .address("192.0.2.1")) }
        // Nobody known: every read counts.
        for _ in 0..<2 { tallies.count(Self.views, key: 1, by: .unknown) }
        // Another key or tally is another count.
        tallies.count(Self.views, key: 2, by: .user(7))
        tallies.count(Self.taps, key: 1, by: .user(7))
        let batch = tallies.batchToWrite()
        #expect(batch[.init(tally: Self.views, key: 1, hour: Self.hour)] == Tallies.Counts(reads: 4, signedIn: 1))
        #expect(batch[.init(tally: Self.views, key: 2, hour: Self.hour)] == Tallies.Counts(reads: 1, signedIn: 1))
        #expect(batch[.init(tally: Self.taps, key: 1, hour: Self.hour)] == Tallies.Counts(reads: 1, signedIn: 1))
        #expect(batch.count == 3)
        tallies.written()
        // Written, the hour's readers are still known: no count again.
        tallies.count(Self.views, key: 1, by: .user(7))
        #expect(tallies.batchToWrite().isEmpty)
        // The next hour they count again, and the last hour's are forgotten.
        clock.now.withLock { $0 = TallyTests.noon.addingTimeInterval(3_600) }
        tallies.count(Self.views, key: 1, by: .user(7))
        #expect(
            tallies.batchToWrite() == [.init(tally: Self.views, key: 1, hour: Self.hour + 3_600): Tallies.Counts(reads: 1, signedIn: 1)])
        #expect(tallies.held == 1)
    }

    @Test func atTheLimitReadersAreCountedAndOneOverIsDropped() {
        let clock = Clock()
        let tallies = Tallies(capacity: 3, clock: clock.read)
        for reader in 1...3 { tallies.count(Self.views, key: 1, by: .user(Int64(reader))) }
        // A reader counted already adds nothing, even at the limit.
        tallies.count(Self.views, key: 1, by: .user(1))
        #expect(tallies.held == 3 && tallies.dropped == 0)
        tallies.count(Self.views, key: 1, by: .user(4))
        #expect(tallies.held == 3 && tallies.dropped == 1)
        #expect(tallies.batchToWrite().values.map(\.reads).reduce(0, +) == 3)
        tallies.written()
        // Writing does not make room within the hour; a new hour does.
        tallies.count(Self.views, key: 1, by: .user(5))
        #expect(tallies.dropped == 2)
        clock.now.withLock { $0 = TallyTests.noon.addingTimeInterval(3_600) }
        tallies.count(Self.views, key: 1, by: .user(5))
        #expect(tallies.held == 1 && tallies.dropped == 2)
    }

    @Test(.enabled(if: TestDatabase.available))
    func aFailedTallyIsTriedAgainAndWhatIsHeldIsWrittenWhenTheWriterStops() async throws {
        try await TestDatabase.withScratchDatabase { url in
            try await TestDatabase.withPool(url: url) { pool, _ in
                let keep = AppSetting("keep-days", default: 30, range: 1...100, help: "")
                let counted = Tally(
                    "counted",
                    statement: "INSERT INTO counted SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::integer[], $4::integer[])",
                    prune: ("DELETE FROM counted WHERE hour < $1", keep))
                let missing = Tally(
                    "missing",
                    statement: "INSERT INTO missing SELECT 1 FROM unnest($1::bigint[], $2::bigint[], $3::integer[], $4::integer[]) LIMIT 1")
                _ = try await pool.query("CREATE TABLE counted (key bigint, hour bigint, reads integer, signed_in integer)")
                let old = Int64(Date().timeIntervalSince1970) - 31 * 86_400
                _ = try await pool.query("INSERT INTO counted VALUES (9, $1, 1, 0)", [old])
                let tallies = Tallies(capacity: 10)
                let settings = try AppSettings([keep], environment: [:], assignments: [])
                let writer = TallyWriter(
                    tallies, declared: [counted, missing], database: pool, interval: .milliseconds(50), settings: settings,
                    logger: Logger(level: .off))
                writer.start()
                tallies.count(counted, key: 1, by: .user(1))
                tallies.count(missing, key: 2, by: .user(1))
                // The first write: `counted` goes in, `missing` fails (no table) and waits.
                try await until { writer.failed >= 1 && writer.written >= 1 }
                // The prune ran with the first write: the 31-day-old count is gone.
                try await until { try await pool.query("SELECT count(*) FROM counted WHERE key = 9")[0].decode(Int.self, at: 0) == 0 }
                _ = try await pool.query("CREATE TABLE missing (one integer)")
                tallies.count(counted, key: 3, by: .address("192.0.2.1"))
                await writer.stop()
                let rows = try await pool.query("SELECT key, reads, signed_in FROM counted ORDER BY key")
                let written = try rows.map {
                    [try $0.decode(Int64.self, at: 0), try $0.decode(Int64.self, at: 1), try $0.decode(Int64.self, at: 2)]
                }
                #expect(written == [[1, 1, 1], [3, 1, 0]])
                #expect(try await pool.query("SELECT count(*) FROM missing")[0].decode(Int.self, at: 0) == 1)
                // Stopped, it does not start again.
                writer.start()
                tallies.count(counted, key: 4, by: .user(1))
                try await Task.sleep(for: .milliseconds(300))
                #expect(try await pool.query("SELECT count(*) FROM counted WHERE key = 4")[0].decode(Int.self, at: 0) == 0)
            }
        }
    }

    /// Waits (up to two minutes, for a busy machine) until `condition` holds.
    private func until(_ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while try await !condition() {
            try #require(ContinuousClock.now < deadline, "not within two minutes")
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
