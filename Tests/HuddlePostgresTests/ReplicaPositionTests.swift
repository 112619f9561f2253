import HuddlePostgres
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
