import Foundation
import HuddlePostgres
import Synchronization

/// Every shelter (up to `PetMatch.sheltersInMemory`), kept in the server, so that "the shelters within reach,
/// nearest first" costs the feed no work in PostgreSQL: measuring and
/// ordering a few hundred shelters there (earthdistance's SQL functions,
/// row by row) was most of the feed's time, and here it is microseconds.
///
/// Distances are earthdistance's own, computed the same way in the same
/// floating point (`earth_distance(ll_to_earth(…), ll_to_earth(…))`: the
/// chord between points on a sphere of 6,378,168 m, turned into an arc),
/// so lists, cursors and `distanceKm` agree with SQL to the last bit
/// (`ShelterDirectoryTests` compares every shelter).
///
/// Any change to `shelters` sends a NOTIFY (its migration 0002) that drops the
/// copy in every process; the next feed reads the table again. A copy
/// read under an earlier LISTEN connection, or while none listens, is not
/// used (notifications may have been missed).
final class ShelterDirectory: Sendable {
    /// Where the database says `shelters` changed.
    static let channel = "huddle_shelters_changed"

    private let shelters: [ShelterRecord]
    /// Each shelter's `ll_to_earth` point.
    private let points: [EarthPoint]
    private let stamp: ChannelWatch.Stamp

    private init(shelters: [ShelterRecord], stamp: ChannelWatch.Stamp) {
        self.shelters = shelters
        points = shelters.map { EarthPoint(latitude: $0.latitude, longitude: $0.longitude) }
        self.stamp = stamp
    }

    /// The watch of `channel` and the copy it keeps fresh, for one
    /// server: one per LISTEN connection (a process may run several
    /// servers, on different databases, as the tests do).
    private struct Kept: Sendable {
        let listener: PostgresListener
        let watch: ChannelWatch
        var current: ShelterDirectory?
    }

    /// Each listener's, made on first use; the entries of listeners that
    /// have closed (their servers stopped) are dropped when one is added.
    private static let state = Mutex<[ObjectIdentifier: Kept]>([:])

    /// The shelters, read on first use and after any change; nil where
    /// the copy cannot be kept fresh (no listener) or there are more than
    /// `limit` shelters (`PetMatch.sheltersInMemory`).
    static func shared(_ database: PostgresPool, listener: PostgresListener?, limit: Int) async throws -> ShelterDirectory? {
        guard let listener, limit > 0 else { return nil }
        let key = ObjectIdentifier(listener)
        let (watch, cached) = state.withLock { state in
            if let kept = state[key], kept.listener === listener { return (kept.watch, kept.current) }
            state = state.filter { !$0.value.watch.hasEnded }
            let kept = Kept(listener: listener, watch: ChannelWatch(channel, listener: listener))
            state[key] = kept
            return (kept.watch, nil)
        }
        try await watch.start { _ in state.withLock { $0[key]?.current = nil } }
        if let cached, watch.isCurrent(cached.stamp) { return cached }
        guard let stamp = watch.stamp() else { return nil }
        let rows = try await database.query(
            "SELECT \(ShelterRecord.columns) FROM shelters s ORDER BY s.id LIMIT $1", [limit + 1])
        guard rows.count <= limit else { return nil }
        let directory = ShelterDirectory(shelters: try rows.map { try ShelterRecord(row: $0) }, stamp: stamp)
        state.withLock { state in
            if watch.mayKeep(stamp), state[key]?.watch === watch { state[key]?.current = directory }
        }
        return directory
    }

    /// The shelters within `metres` of a point, nearest first (then by
    /// id), each with its distance in metres.
    func withinReach(latitude: Double, longitude: Double, metres: Double) -> [(shelter: ShelterRecord, metres: Double)] {
        let origin = EarthPoint(latitude: latitude, longitude: longitude)
        var found: [(shelter: ShelterRecord, metres: Double)] = []
        for (shelter, point) in zip(shelters, points) {
            let distance = point.distance(to: origin)
            if distance <= metres { found.append((shelter, distance)) }
        }
        found.sort { ($0.metres, $0.shelter.id) < ($1.metres, $1.shelter.id) }
        return found
    }
}

/// A point as earthdistance's `ll_to_earth` makes it, and its
/// `earth_distance`, in the same operations and order as its SQL.
struct EarthPoint {
    /// `earth()`: the radius earthdistance assumes, in metres.
    static let radius = 6_378_168.0
    /// PostgreSQL's `radians()` factor.
    static let radiansPerDegree = 0.0174532925199432957692

    let x: Double
    let y: Double
    let z: Double

    init(latitude: Double, longitude: Double) {
        let lat = latitude * Self.radiansPerDegree
        let lon = longitude * Self.radiansPerDegree
        x = Self.radius * cos(lat) * cos(lon)
        y = Self.radius * cos(lat) * sin(lon)
        z = Self.radius * sin(lat)
    }

    /// `sec_to_gc(cube_distance(self, other))`.
    func distance(to other: EarthPoint) -> Double {
        let (dx, dy, dz) = (x - other.x, y - other.y, z - other.z)
        var sum = 0.0
        sum += dx * dx
        sum += dy * dy
        sum += dz * dz
        let chord = sum.squareRoot()
        if chord < 0 { return 0 }
        if chord / (2 * Self.radius) > 1 { return Double.pi * Self.radius }
        return 2 * Self.radius * asin(chord / (2 * Self.radius))
    }
}
