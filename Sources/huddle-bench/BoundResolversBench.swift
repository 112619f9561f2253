import ArgumentParser
import Foundation
import GraphQL
import GraphQLTransport
import HuddleRuntime

extension Bench {
    /// The Playmate feed's shape executed by the engine alone: records as
    /// Swift classes, a resolver bound to every field, and the creator,
    /// players and location of each session through DataLoaders whose batch
    /// functions answer from memory. It measures what the server spends per
    /// field and per object, without HTTP or PostgreSQL.
    struct Resolvers: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Execute the feed query over bound resolvers and in-memory loaders; report ns per execution."
        )

        @Option(help: "Sessions in the page.")
        var sessions = 50

        @OptionGroup var timing: TimingOptions

        @Option(help: "Execute exactly this many times and report nothing (for profilers).")
        var iterations: Int?

        func run() async throws {
            // On an event loop, as the server runs requests: the executor's
            // tasks and the loaders' batches all stay on one thread, and the
            // rounds' deadlines are the loop's timers (as the server's are).
            try await EventLoop.withOwnThread { loop in try await measure(on: loop) }
        }

        private func measure(on loop: EventLoop) async throws {
            let fixture = FeedFixture(sessions: sessions)
            let schema = try fixture.executableSchema()
            let source = Source(body: FeedFixture.query)
            let document = try GraphQL.parse(source)
            await Measurement.executions(name: "feed-\(sessions)", timing: timing, iterations: iterations) {
                await GraphQL.execute(
                    schema: schema, document: document, source: source, context: FeedFixture.Context(fixture), workExecutor: loop)
            }
        }
    }
}

/// Deterministic in-memory sessions, users and locations for `bench resolvers`.
struct FeedFixture: Sendable {
    static let sdl = """
        scalar DateTime
        enum Sport { BASKETBALL SOCCER TENNIS YOGA }
        type Query { sessions(first: Int!): [Session!]! }
        type Session {
          id: ID! sport: Sport! occursAt: DateTime! durationMinutes: Int! capacity: Int! occupied: Int!
          creator: User! players: [User!]! location: Location!
        }
        type User { id: ID! username: String! firstName: String! lastName: String! }
        type Location { name: String! latitude: Float! longitude: Float! }
        """
    static let query = """
        query Feed { sessions(first: 50) { id sport occursAt durationMinutes capacity occupied
          creator { id username firstName lastName } players { id username } location { name latitude longitude } } }
        """

    final class Session: Sendable {
        let id: Int64, sport: String, occursAt: Int, durationMinutes: Int, capacity: Int
        let creatorID: Int64, playerIDs: [Int64], locationID: Int64

        init(_ index: Int) {
            id = Int64(index + 1)
            sport = ["BASKETBALL", "SOCCER", "TENNIS", "YOGA"][index % 4]
            occursAt = 1_795_285_800_000 + index * 900_000
            durationMinutes = 60 + index % 4 * 15
            capacity = 10
            creatorID = Int64(index * 7 % 1_000 + 1)
            playerIDs = (0..<(2 + index % 9)).map { Int64((index * 13 + $0 * 31) % 1_000 + 1) }
            locationID = Int64(index % 200 + 1)
        }
    }

    final class User: Sendable {
        let id: Int64, username: String, firstName: String, lastName: String
        init(_ id: Int64) {
            self.id = id
            username = "player\(id)"
            firstName = ["Ana", "Bo", "Chen", "Dara"][Int(id) % 4]
            lastName = ["Lima", "Berg", "Wu"][Int(id) % 3]
        }
    }

    final class Location: Sendable {
        let id: Int64, name: String, latitude: Double, longitude: Double
        init(_ id: Int64) {
            self.id = id
            name = "Court \(id)"
            latitude = 40.6 + Double(id) / 1_000
            longitude = -74.05 + Double(id) / 2_000
        }
    }

    let sessions: [Session]
    let users: [Int64: User]
    let locations: [Int64: Location]

    init(sessions count: Int) {
        sessions = (0..<count).map(Session.init)
        users = Dictionary(uniqueKeysWithValues: (1...1_000).map { (Int64($0), User(Int64($0))) })
        locations = Dictionary(uniqueKeysWithValues: (1...200).map { (Int64($0), Location(Int64($0))) })
    }

    /// One execution's loaders, as a server makes them per request.
    final class Context: Sendable {
        let users: DataLoader<Int64, User>
        let locations: DataLoader<Int64, Location>

        init(_ fixture: FeedFixture) {
            users = DataLoader { ids in ids.map { id in fixture.users[id].map { .success($0) } ?? .failure(FixtureError.missing) } }
            locations = DataLoader { ids in
                ids.map { id in fixture.locations[id].map { .success($0) } ?? .failure(FixtureError.missing) }
            }
        }
    }

    enum FixtureError: Error { case missing }

    func executableSchema() throws -> ExecutableSchema {
        var builder = ExecutableSchema.Builder(schema: try buildSchema(Self.sdl))
        let sessions = sessions
        builder.resolve("Query", "sessions") { input in
            guard case .int(let first)? = input.argument("first") else { return .list([]) }
            return .list(sessions.prefix(first).map { .object($0) })
        }
        func field<Record: AnyObject & Sendable>(_ type: String, _ name: String, _ read: @escaping @Sendable (Record) -> Resolved) {
            builder.resolve(type, name, on: Record.self, read)
        }
        field("Session", "id") { (session: Session) in .value(.string(String(session.id))) }
        field("Session", "sport") { (session: Session) in .value(.enum(session.sport)) }
        field("Session", "occursAt") { (session: Session) in .value(.int(session.occursAt)) }
        field("Session", "durationMinutes") { (session: Session) in .value(.int(session.durationMinutes)) }
        field("Session", "capacity") { (session: Session) in .value(.int(session.capacity)) }
        field("Session", "occupied") { (session: Session) in .value(.int(session.playerIDs.count)) }
        builder.resolve("Session", "creator") { input in
            guard case .object(let value) = input.parent, let session = value as? Session,
                let context = input.context as? Context
            else { return .null }
            return context.users.load(session.creatorID) { .object($0) }
        }
        builder.resolve("Session", "players") { input in
            guard case .object(let value) = input.parent, let session = value as? Session,
                let context = input.context as? Context
            else { return .null }
            return context.users.loadMany(session.playerIDs) { .object($0) }
        }
        builder.resolve("Session", "location") { input in
            guard case .object(let value) = input.parent, let session = value as? Session,
                let context = input.context as? Context
            else { return .null }
            return context.locations.load(session.locationID) { .object($0) }
        }
        field("User", "id") { (user: User) in .value(.string(String(user.id))) }
        field("User", "username") { (user: User) in .value(.string(user.username)) }
        field("User", "firstName") { (user: User) in .value(.string(user.firstName)) }
        field("User", "lastName") { (user: User) in .value(.string(user.lastName)) }
        field("Location", "name") { (location: Location) in .value(.string(location.name)) }
        field("Location", "latitude") { (location: Location) in .value(.float(location.latitude)) }
        field("Location", "longitude") { (location: Location) in .value(.float(location.longitude)) }
        return try builder.build()
    }
}
