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
    /// Positions on 8 KiB pages of 16 MiB segments (PostgreSQL's defaults, which the test server has).
    @Test(arguments: [
        ("0/3000028", "0/3000000"),  // past a segment's long header: the segment's start
        ("0/3002018", "0/3002000"),  // past a page's short header: the page's start
        ("0/3002000", "0/3002000"),  // a page's start: itself
        ("0/3002019", "0/3002019"),  // past the header and a byte: a record's end, itself
        ("1/0", "1/0"),
    ])
    func aPositionPastAPagesHeaderIsThePagesStart(_ position: String, _ expected: String) async throws {
        let settings = try await TestDatabase.withPool { pool, _ in
            try await pool.query(
                "SELECT current_setting('wal_block_size')::int, pg_size_bytes(current_setting('wal_segment_size'))::int8", [])[0]
        }
        try #require(try settings.decode(Int.self, at: 0) == 8192 && settings.decode(Int64.self, at: 1) == 16 << 20)
        let row = try await TestDatabase.withPool { pool, _ in
            try await pool.query("SELECT (\(WALPosition.pageStartSQL("$1::pg_lsn")))::text", [position])[0]
        }
        #expect(try row.decode(String.self, at: 0) == expected)
    }

    @Test func theInsertPositionReadsAsAPosition() async throws {
        let text = try await TestDatabase.withPool { pool, _ in
            try await pool.query("SELECT (\(WALPosition.insertPositionSQL))::text", [])[0].decode(String.self, at: 0)
        }
        #expect(WALPosition(text) != nil)
    }
}
