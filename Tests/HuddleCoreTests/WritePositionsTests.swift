import HuddleCore
import HuddlePostgres
import Testing

/// What each user's reads must see: their last write, never less than the
/// floor, and the primary alone while that is not known.
@Suite(.hangGuard) struct WritePositionsTests {
    /// Positions whose floor is read as `floor`, once started.
    static func started(capacity: Int = 100_000, floor: UInt64 = 100) async throws -> WritePositions {
        let positions = WritePositions(capacity: capacity, listener: nil) { WALPosition(floor) }
        try await positions.start()
        while positions.required(forUser: nil) == .unknown { await Task.yield() }
        return positions
    }

    @Test func nothingIsGoodEnoughUntilTheFloorIsRead() async throws {
        let positions = WritePositions(listener: nil) { WALPosition(100) }
        #expect(positions.required(forUser: nil) == .unknown)
        #expect(positions.required(forUser: 1) == .unknown)
        try await positions.start()
        while positions.required(forUser: nil) == .unknown { await Task.yield() }
        #expect(positions.required(forUser: nil) == WALPosition(100))
        #expect(positions.required(forUser: 1) == WALPosition(100))
        positions.stop()
    }

    @Test func aUsersReadsMustSeeTheirLastWrite() async throws {
        let positions = try await Self.started()
        positions.record(WALPosition(500), forUser: 1)
        positions.record(WALPosition(300), forUser: 1)
        #expect(positions.required(forUser: 1) == WALPosition(500))
        #expect(positions.required(forUser: 2) == WALPosition(100))
        // A write before the floor asks no less than the floor.
        positions.record(WALPosition(50), forUser: 3)
        #expect(positions.required(forUser: 3) == WALPosition(100))
        positions.stop()
    }

    @Test func aUserLetGoAtTheCapacityRaisesTheFloorToTheirWrite() async throws {
        let positions = try await Self.started(capacity: 2)
        let writes: [Int64: UInt64] = [1: 200, 2: 300, 3: 400]
        for user in writes.keys.sorted() { positions.record(WALPosition(writes[user]!), forUser: user) }
        #expect(positions.count == 2)
        // Whoever went, their write became everyone's floor; no one reads less than their own write.
        let floor = positions.required(forUser: 99)
        #expect(writes.values.contains(floor.value))
        for (user, write) in writes {
            #expect(positions.required(forUser: user) == max(WALPosition(write), floor), "user \(user)")
        }
        positions.stop()
    }

    @Test func aUserWhoseWriteIsUnsureReadsFromThePrimary() async throws {
        let positions = try await Self.started()
        positions.record(WALPosition(500), forUser: 1)
        positions.markUnsure([1])
        #expect(positions.required(forUser: 1) == .unknown)
        #expect(positions.required(forUser: 2) == WALPosition(100))
        positions.stop()
    }
}

extension WritePositionsTests {
    @Test func aNewPrimaryForgetsEveryPosition() async throws {
        let positions = try await Self.started(floor: 100)
        positions.record(WALPosition(500), forUser: 1)
        positions.forgetAll()
        while positions.required(forUser: nil) == .unknown { await Task.yield() }
        #expect(positions.required(forUser: 1) == WALPosition(100))
        #expect(positions.count == 0)
        positions.stop()
    }

    @Test func pastTheCapacityOfUnsureMarksEveryoneReadsFromThePrimary() async throws {
        let positions = try await Self.started(capacity: 2)
        positions.markUnsure([1, 2])
        #expect(positions.required(forUser: 3) == WALPosition(100))
        positions.markUnsure([3])
        #expect(positions.required(forUser: 4) == .unknown)
        #expect(positions.required(forUser: nil) == .unknown)
        positions.stop()
    }
}
