import HuddlePostgres
import PostgresTestSupport
import Testing

/// WAL positions as PostgreSQL writes them, and standbys named without their secrets.
@Suite struct ReplicaPositionTests {
    @Test(arguments: [
        ("0/0", UInt64(0)), ("0/3000060", UInt64(0x300_0060)), ("16/B374D848", UInt64(0x16_B374_D848)),
        ("FFFFFFFF/FFFFFFFF", UInt64.max),
    ])
    func aPositionReadsAndWritesAsPostgreSQLDoes(_ text: String, _ value: UInt64) {
        #expect(WALPosition(text)?.value == value)
        #expect(WALPosition(value).description == text)
    }

    @Test(arguments: ["", "0", "/", "0/", "/0", "1/2/3", "G/0", "0/123456789", "-1/0", " 0/0", "0/0 "])
    func anythingElseIsNoPosition(_ text: String) {
        #expect(WALPosition(text) == nil)
    }

    @Test func positionsOrderByTheirHighHalfFirst() {
        #expect(WALPosition("1/0")! > WALPosition("0/FFFFFFFF")!)
        #expect(WALPosition("0/10")! < WALPosition("0/11")!)
    }

    @Test(arguments: [
        ("postgresql://huddle:secret@db.internal:5432/huddle?sslmode=require", "db.internal:5432/huddle"),
        ("postgresql:///huddle_test?host=/tmp/socket&user=huddle&port=5433", "/huddle_test host=/tmp/socket port=5433"),
        ("postgres://replica/app", "replica/app"),
        ("host='/tmp/standby' user=huddle password=secret dbname='huddle'", "host='/tmp/standby' dbname='huddle'"),
    ])
    func aStandbyIsNamedWithoutItsUserOrPassword(_ url: String, _ name: String) {
        #expect(ReplicaMonitor.name(of: url) == name)
    }
}

/// The primary's insert position as Huddle reads it, on a real PostgreSQL.
@Suite(.enabled(if: TestDatabase.available))
struct InsertPositionTests {
    @Test func theInsertPositionIsPostgreSQLsOrThePageStartBeforeItsHeader() async throws {
        try await TestDatabase.withPool { pool, _ in
            for _ in 0..<20 {
                let row = try await pool.query(
                    """
                    SELECT (\(WALPosition.insertPositionSQL))::text, pg_current_wal_insert_lsn()::text,
                           current_setting('wal_block_size')::int
                    """, [])[0]
                let ours = try #require(WALPosition(try row.decode(String.self, at: 0)))
                let theirs = try #require(WALPosition(try row.decode(String.self, at: 1)))
                let block = UInt64(try row.decode(Int.self, at: 2))
                // Either PostgreSQL's, or a page's start just before the header PostgreSQL counted.
                #expect(ours == theirs || ([24, 40].contains(theirs.value - ours.value) && ours.value % block == 0), "\(ours) \(theirs)")
                // A transaction with an id: a commit record, and the position moves on.
                _ = try await pool.query("SELECT txid_current()", [])
            }
        }
    }
}
