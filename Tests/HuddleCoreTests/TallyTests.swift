import Foundation
import HuddleCore
import HuddlePostgres
import HuddleRuntime
import PostgresTestSupport
import Synchronization
import Testing

/// Counted reads: each reader once per key and hour until the next write,
/// held within a bound, handed over when full, written in one statement a
/// tally, tried again after a failure and written last when the writer stops.
@Suite struct TallyTests {
    static let views = Tally("views", statement: "unused")
    static let taps = Tally("taps", statement: "unused")
    static let noon = Date(timeIntervalSince1970: 1_764_331_200)  // 2025-11-28 12:00 UTC

    @Test func aReaderCountsOncePerKeyAndHourUntilTheNextWrite() {
        let tallies = Tallies(capacity: 100)
        for _ in 0..<3 { tallies.count(Self.views, key: 1, by: .user(7), at: Self.noon) }
        for _ in 0..<2 { tallies.count(Self.views, key: 1, by: .address("192.0.2.1"), at: Self.noon) }
        // Nobody known: every read counts.
        for _ in 0..<2 { tallies.count(Self.views, key: 1, by: .unknown, at: Self.noon) }
        // Another key, tally or hour is another count.
        tallies.count(Self.views, key: 2, by: .user(7), at: Self.noon)
        tallies.count(Self.taps, key: 1, by: .user(7), at: Self.noon)
        tallies.count(Self.views, key: 1, by: .user(7), at: Self.noon.addingTimeInterval(3_600))
        let batch = tallies.batchToWrite()
        let hour = Int64(Self.noon.timeIntervalSince1970)
        #expect(batch[.init(tally: Self.views, key: 1, hour: hour)] == Tallies.Counts(reads: 4, signedIn: 1))
        #expect(batch[.init(tally: Self.views, key: 2, hour: hour)] == Tallies.Counts(reads: 1, signedIn: 1))
        #expect(batch[.init(tally: Self.taps, key: 1, hour: hour)] == Tallies.Counts(reads: 1, signedIn: 1))
        #expect(batch[.init(tally: Self.views, key: 1, hour: hour + 3_600)] == Tallies.Counts(reads: 1, signedIn: 1))
        #expect(batch.count == 4)
        tallies.written()
        // After the write the same reader counts again.
        tallies.count(Self.views, key: 1, by: .user(7), at: Self.noon)
        #expect(tallies.batchToWrite()[.init(tally: Self.views, key: 1, hour: hour)] == Tallies.Counts(reads: 1, signedIn: 1))
    }

    @Test func atTheLimitReadsAreHeldAndOneOverHandsThemOver() {
        let tallies = Tallies(capacity: 3)
        let wakes = Atomic<Int>(0)
        tallies.onFull { wakes.add(1, ordering: .relaxed) }
        for reader in 1...3 { tallies.count(Self.views, key: 1, by: .user(Int64(reader))) }
        // A read counted already adds nothing, even at the limit.
        tallies.count(Self.views, key: 1, by: .user(1))
        #expect(tallies.held == 3 && wakes.load(ordering: .relaxed) == 0)
        tallies.count(Self.views, key: 1, by: .user(4))
        #expect(wakes.load(ordering: .relaxed) == 1)
        #expect(tallies.held == 1)
        // The handed-over batch is written first; the fourth waits for the next.
        #expect(tallies.batchToWrite().values.map(\.reads).reduce(0, +) == 3)
        // While it is unwritten the held reads fill again, and then are dropped.
        for reader in 5...6 { tallies.count(Self.views, key: 1, by: .user(Int64(reader))) }
        #expect(tallies.held == 3 && tallies.dropped == 0)
        tallies.count(Self.views, key: 1, by: .user(7))
        #expect(tallies.held == 3 && tallies.dropped == 1)
        // Written, the held reads are next.
        tallies.written()
        #expect(tallies.batchToWrite().values.map(\.reads).reduce(0, +) == 3)
    }

    @Test(.enabled(if: TestDatabase.available))
    func theWriterTriesAFailedBatchAgainAndWritesWhatIsLeftWhenItStops() async throws {
        try await TestDatabase.withScratchDatabase { url in
            try await TestDatabase.withPool(url: url) { pool, loop in
                let tally = Tally(
                    "counted",
                    statement: "INSERT INTO counted SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::integer[], $4::integer[])")
                let tallies = Tallies(capacity: 1)
                let writer = TallyWriter(tallies, database: pool, interval: .seconds(3_600), logger: Logger())
                writer.start()
                tallies.count(tally, key: 1, by: .user(1), at: Self.noon)
                // One over the limit: the first is written at once, and fails (no table yet).
                tallies.count(tally, key: 2, by: .address("192.0.2.1"), at: Self.noon)
                let deadline = ContinuousClock.now + .seconds(120)
                while writer.failed == 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
                #expect(writer.failed == 1)
                _ = try await pool.query("CREATE TABLE counted (key bigint, hour bigint, reads integer, signed_in integer)")
                // Full, with the failed batch still to write: dropped.
                tallies.count(tally, key: 3, by: .user(1), at: Self.noon)
                #expect(tallies.dropped == 1)
                await writer.stop()
                let rows = try await pool.query("SELECT key, hour, reads, signed_in FROM counted ORDER BY key")
                let written = try rows.map {
                    [try $0.decode(Int64.self, at: 0), try $0.decode(Int64.self, at: 2), try $0.decode(Int64.self, at: 3)]
                }
                #expect(written == [[1, 1, 1], [2, 1, 0]])
                #expect(try rows.allSatisfy { try $0.decode(Int64.self, at: 1) == Int64(Self.noon.timeIntervalSince1970) })
                #expect(writer.written == 2)
                _ = loop
            }
        }
    }
}
