import Foundation
import GraphQL
import HuddleCore
import HuddlePostgres
import HuddleRuntime

/// Sports sessions: their fields, creating, joining, leaving, deleting.
enum SessionResolvers {
    static func bind(_ binder: inout SchemaBinder) {
        bindFields(&binder)
        binder.root("Query", "sportsSession") { input in
            guard let id = GlobalID.decode(input.string("id") ?? ""), id.type == "SportsSession" else { return .null }
            return input.request.playmate.sessions.load(id.id) { $0.map { .object($0) } ?? .null }
        }
        binder.root("Query", "sportsSessions") { input in
            let search = try SessionSearch(input)
            let (database, loaders, playmate) = (input.request.database, input.request.loaders, input.request.playmate)
            return .async { .object(try await search.run(on: database, priming: loaders, playmate)) }
        }
        binder.root("Query", "mySessions") { input in
            let viewer = try input.request.signedIn()
            let page = try PageRequest(input)
            let from = input.string("from").flatMap(Instant.parse)
            let to = input.string("to").flatMap(Instant.parse)
            let database = input.request.database
            return .async {
                let query = sessions(playedBy: viewer, from: from, to: to)
                return .object(try await query.page(page, on: database) { try SessionRecord(row: $0) })
            }
        }
        binder.bindConnection("SportsSessionConnection", edge: "SportsSessionEdge")
        binder.rootAsync("Mutation", "createSportsSession", create)
        binder.rootAsync("Mutation", "joinSportsSession", join)
        binder.rootAsync("Mutation", "leaveSportsSession", leave)
        binder.rootAsync("Mutation", "deleteSportsSession", delete)
    }

    /// The sessions `user` plays in, by start, from `from` (now when nil)
    /// until before `to`: a range of the index of players by start, however
    /// many sessions they have played.
    static func sessions(playedBy user: Int64, from: Date?, to: Date?) -> KeysetQuery {
        KeysetQuery(
            columns: SessionRecord.columns,
            from: """
                FROM session_players p JOIN sports_sessions s ON s.id = p.session_id
                WHERE p.user_id = $1 AND p.occurs_at >= coalesce($2::timestamptz, now())
                AND ($3::timestamptz IS NULL OR p.occurs_at < $3::timestamptz)
                """,
            parameters: [user, from, to],
            keys: [("p.occurs_at", "timestamptz"), ("p.session_id", "bigint")]
        )
    }

    private static func bindFields(_ binder: inout SchemaBinder) {
        binder.field("SportsSession", "id") { (session: SessionRecord) in GlobalID.value("SportsSession", session.id) }
        binder.field("SportsSession", "sport") { (session: SessionRecord) in .scalar(.enum(session.sport)) }
        binder.field("SportsSession", "skillLevel") { (session: SessionRecord) in .scalar(.enum(session.skillLevel)) }
        binder.field("SportsSession", "occursAt") { (session: SessionRecord) in Instant.value(session.occursAt) }
        binder.field("SportsSession", "durationMinutes") { (session: SessionRecord) in .scalar(.int(session.durationMinutes)) }
        binder.field("SportsSession", "endsAt") { (session: SessionRecord) in
            Instant.value(session.occursAt.addingTimeInterval(TimeInterval(session.durationMinutes * 60)))
        }
        binder.field("SportsSession", "capacity") { (session: SessionRecord) in .scalar(.int(session.capacity)) }
        binder.field("SportsSession", "occupied") { (session: SessionRecord) in .scalar(.int(session.occupied)) }
        binder.field("SportsSession", "openSpots") { (session: SessionRecord) in .scalar(.int(max(0, session.capacity - session.occupied)))
        }
        binder.field("SportsSession", "distanceKm") { (session: SessionRecord) in session.distanceKm.map { .scalar(.float($0)) } ?? .null }
        binder.field("SportsSession", "createdAt") { (session: SessionRecord) in Instant.value(session.createdAt) }
        binder.field("SportsSession", "creator") { (session: SessionRecord, input) in
            input.request.loaders.users(for: input.info).load(session.creatorID) { $0.map { .object($0) } ?? .null }
        }
        binder.field("SportsSession", "location") { (session: SessionRecord, input) in
            input.request.playmate.locations.load(session.locationID) { $0.map { .object($0) } ?? .null }
        }
        binder.field("SportsSession", "players") { (session: SessionRecord, input) in
            // The ids come with the session row; the users through the loader
            // that also brings the creators. The API never deletes a user, so
            // a missing row is a data error and reported as one.
            input.request.loaders.users(for: input.info).loadMany(session.playerIDs) { $0.map { .object($0) } ?? .null }
        }
        binder.field("SportsSession", "viewerIsPlayer") { (session: SessionRecord, input) in
            input.request.playmate.viewerSessions.load(session.id) { .scalar(.boolean($0)) }
        }
    }

    // MARK: Mutations

    /// How far ahead a session may be planned.
    static let horizon: TimeInterval = 2 * 365 * 24 * 3600

    private static func create(_ input: ResolverInput) async throws -> Resolved {
        let context = input.request
        let viewer = try context.signedIn()
        let fields = input.argument("input") ?? .null
        let sport = fields["sport"]?.enumValue ?? ""
        let skillLevel = fields["skillLevel"]?.enumValue ?? ""
        guard let occursAt = fields["occursAt"]?.stringValue.flatMap(Instant.parse) else {
            throw APIError.badInput("\"occursAt\" is not a date-time.")
        }
        guard occursAt > Date() else { throw APIError.badInput("\"occursAt\" must be in the future.") }
        guard occursAt < Date().addingTimeInterval(horizon) else { throw APIError.badInput("\"occursAt\" must be within two years.") }
        let duration = fields["durationMinutes"]?.intValue ?? 0
        guard (1...1440).contains(duration) else { throw APIError.badInput("\"durationMinutes\" must be between 1 and 1440.") }
        let capacity = fields["capacity"]?.intValue ?? 0
        guard (2...100).contains(capacity) else { throw APIError.badInput("\"capacity\" must be between 2 and 100, the creator included.") }
        let place = fields["location"] ?? .null
        let existing = try place["id"]?.stringValue.map { try GlobalID.id(of: "Location", $0, argument: "input.location.id") }
        let new = try place["new"].flatMap { $0.isNull ? nil : try LocationResolvers.newLocation($0) }

        return try await context.database.withTransaction { connection in
            let location: LocationRecord
            if let existing {
                let rows = try await connection.query("SELECT \(LocationRecord.columns) FROM locations l WHERE l.id = $1", [existing])
                guard let row = rows.first else { throw APIError.notFound("No location has that id.") }
                location = try LocationRecord(row: row)
            } else if let new {
                location = try await LocationResolvers.insert(new, on: connection)
            } else {
                throw APIError.badInput("\"input.location\" needs an id or a new location.")
            }
            let rows = try await connection.query(
                """
                INSERT INTO sports_sessions (sport, skill_level, creator_id, location_id, latitude, longitude, occurs_at, duration_minutes, capacity)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id
                """,
                [sport, skillLevel, viewer, location.id, location.latitude, location.longitude, occursAt, duration, capacity])
            let id = try rows[0].decode(Int64.self, at: 0)
            _ = try await connection.query("INSERT INTO session_players (session_id, user_id) VALUES ($1, $2)", [id, viewer])
            try await SessionReminder.schedule(
                session: id, occursAt: occursAt, leadMinutes: context.settings[Playmate.sessionReminderMinutes], on: connection)
            return .object(try await load(id, on: connection))
        }
    }

    static func load(_ id: Int64, on database: some PostgresQuerying) async throws -> SessionRecord {
        let rows = try await database.query("SELECT \(SessionRecord.columns) FROM sports_sessions s WHERE s.id = $1", [id])
        guard let row = rows.first else { throw APIError.notFound("No sports session has that id.") }
        return try SessionRecord(row: row)
    }

    /// Adds `user` to the session in the caller's transaction: the session
    /// must exist, not have started, and have room (the table's check on
    /// `occupied` has the last word when joins race).
    static func addPlayer(_ user: Int64, to sessionID: Int64, on connection: PostgresConnection) async throws {
        let rows = try await connection.query("SELECT occurs_at FROM sports_sessions WHERE id = $1", [sessionID])
        guard let row = rows.first else { throw APIError.notFound("No sports session has that id.") }
        guard try row.decode(Date.self, at: 0) > Date() else { throw APIError.badInput("This session has started already.") }
        do {
            _ = try await connection.query("INSERT INTO session_players (session_id, user_id) VALUES ($1, $2)", [sessionID, user])
            try await SessionEvents.announce(.playerJoined, session: sessionID, actor: user, on: connection)
        } catch let error as PostgresError where error.kind == .uniqueViolation {
            throw APIError.badInput("You are in this session already.")
        } catch let error as PostgresError where error.kind == .checkViolation {
            throw APIError.badInput("This session is full.")
        } catch let error as PostgresError where error.kind == .foreignKeyViolation {
            throw APIError.notFound("No sports session has that id.")
        }
    }

    private static func join(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let sessionID = try input.id("sessionId", of: "SportsSession")
        return try await input.request.database.withTransaction { connection in
            try await addPlayer(viewer, to: sessionID, on: connection)
            return .object(try await load(sessionID, on: connection))
        }
    }

    private static func leave(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let sessionID = try input.id("sessionId", of: "SportsSession")
        return try await input.request.database.withTransaction { connection in
            let session = try await load(sessionID, on: connection)
            guard session.creatorID != viewer else {
                throw APIError.badInput("The creator cannot leave their session; delete it instead.")
            }
            let rows = try await connection.query(
                "DELETE FROM session_players WHERE session_id = $1 AND user_id = $2", [sessionID, viewer])
            guard rows.affectedRows > 0 else { throw APIError.badInput("You are not in this session.") }
            try await SessionEvents.announce(.playerLeft, session: sessionID, actor: viewer, on: connection)
            return .object(try await load(sessionID, on: connection))
        }
    }

    private static func delete(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let sessionID = try input.id("sessionId", of: "SportsSession")
        return try await input.request.database.withTransaction { connection in
            let rows = try await connection.query(
                "SELECT creator_id, occurs_at > now() FROM sports_sessions WHERE id = $1 FOR UPDATE", [sessionID])
            guard let row = rows.first else { throw APIError.notFound("No sports session has that id.") }
            guard try row.decode(Int64.self, at: 0) == viewer else {
                throw APIError.forbidden("Only the creator of a session can delete it.")
            }
            // Once it has started it is its players' history and statistics, as joining it is closed.
            guard try row.decode(Bool.self, at: 1) else {
                throw APIError.badInput("This session has started already; it stays in its players' history.")
            }
            try await cancel(sessionID, by: viewer, on: connection)
            return .scalar(.string(input.string("sessionId")!))
        }
    }

    /// Deletes a session by its creator, in the caller's transaction: its
    /// reminder goes, live subscribers hear, and each other player is told
    /// (not who, when `creatorLeaves`: their account is going, name and all).
    static func cancel(_ sessionID: Int64, by creator: Int64, creatorLeaves: Bool = false, on connection: PostgresConnection)
        async throws
    {
        // Each other player's text gives the time in their own zone.
        let players = try await connection.query(
            """
            SELECT p.user_id, s.sport, l.name, reader_time(s.occurs_at, reader_time_zone(p.user_id)), c.username
            FROM sports_sessions s JOIN locations l ON l.id = s.location_id JOIN users c ON c.id = s.creator_id
            JOIN session_players p ON p.session_id = s.id AND p.user_id <> $2
            WHERE s.id = $1 ORDER BY p.user_id
            """, [sessionID, creator])
        let messages = try players.map { row in
            let sport = SportName(try row.decode(String.self, at: 1))
            let (place, when, by) = (
                try row.decode(String.self, at: 2), try row.decode(String.self, at: 3), try row.decode(String.self, at: 4)
            )
            let text =
                creatorLeaves
                ? "The \(sport.text) session at \(place) \(when) was called off: its organiser left Playmate."
                : "\(by) called off the \(sport.text) session at \(place) \(when)."
            return (user: try row.decode(Int64.self, at: 0), text: text)
        }
        _ = try await connection.query("DELETE FROM sports_sessions WHERE id = $1", [sessionID])
        try await SessionReminder.cancel(session: sessionID, on: connection)
        try await SessionEvents.announce(.deleted, session: sessionID, actor: creator, on: connection)
        try await Notifications.record(
            .sessionDeleted, messages: messages, actor: creator, subject: NodeReference("SportsSession", sessionID), on: connection)
    }
}
