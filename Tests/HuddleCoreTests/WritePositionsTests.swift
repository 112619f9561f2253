import HuddleCore
import HuddlePostgres
import Testing

/// What each token's reads must see: its last write, and never less than the floor.
@Suite struct WritePositionsTests {
    @Test func nothingIsGoodEnoughUntilTheFloorIsRead() async throws {
        let positions = WritePositions(listener: nil) { WALPosition(100) }
        #expect(positions.required(forTokenHash: nil) == WALPosition(.max))
        try await positions.start()
        #expect(positions.required(forTokenHash: nil) == WALPosition(100))
        #expect(positions.required(forTokenHash: "a") == WALPosition(100))
    }

    @Test func aTokensReadsMustSeeItsLastWrite() async throws {
        let positions = WritePositions(listener: nil) { WALPosition(100) }
        try await positions.start()
        positions.record(WALPosition(500), forTokenHash: "a")
        positions.record(WALPosition(300), forTokenHash: "a")
        #expect(positions.required(forTokenHash: "a") == WALPosition(500))
        #expect(positions.required(forTokenHash: "b") == WALPosition(100))
        // A write before the floor asks no less than the floor.
        positions.record(WALPosition(50), forTokenHash: "c")
        #expect(positions.required(forTokenHash: "c") == WALPosition(100))
    }

    @Test func atTheCapacityATokenLetGoRaisesTheFloor() async throws {
        let positions = WritePositions(capacity: 2, listener: nil) { WALPosition(100) }
        try await positions.start()
        positions.record(WALPosition(200), forTokenHash: "a")
        positions.record(WALPosition(300), forTokenHash: "b")
        #expect(positions.count == 2)
        positions.record(WALPosition(400), forTokenHash: "c")
        #expect(positions.count == 2)
        // Whichever went, its write is now everyone's floor: no token reads less.
        let floor = positions.required(forTokenHash: "unknown")
        #expect(floor == WALPosition(200) || floor == WALPosition(300) || floor == WALPosition(400))
        for token in ["a", "b", "c"] {
            #expect(
                positions.required(forTokenHash: token) >= [("a", 200), ("b", 300), ("c", 400)].first { $0.0 == token }.map {
                    WALPosition(UInt64($0.1))
                }!)
        }
    }
}
