import Foundation
import GraphQL
import HuddleCore
import HuddlePostgres

/// Writing one's own habits: the profile (time zone), adding, changing,
/// pausing and archiving habits, and checking days in and out. A streak
/// that reaches a milestone is celebrated once, in the same transaction.
enum HabitMutations {
    static let milestones = [7, 30, 100]
    static let maxCustomName = 80

    static func bind(_ binder: inout SchemaBinder) {
        binder.rootAsync("Mutation", "updateHabitProfile", updateProfile)
        binder.rootAsync("Mutation", "addHabit", add)
        binder.rootAsync("Mutation", "updateHabit", update)
        binder.rootAsync("Mutation", "setHabitStatus", setStatus)
        binder.rootAsync("Mutation", "checkIn") { input in try await checkIn(input, done: true) }
        binder.rootAsync("Mutation", "undoCheckIn") { input in try await checkIn(input, done: false) }
    }

    /// `zone` if it is a time zone of the tz database, else BAD_USER_INPUT.
    static func requireTimeZone(_ zone: String, argument: String, on database: some PostgresQuerying) async throws -> String {
        guard zone.utf8.count <= 64,
            try await !database.query("SELECT 1 FROM time_zones WHERE name = $1", [zone]).isEmpty
        else {
            throw APIError.badInput(
                "\"\(argument)\" is not a time zone of the tz database (such as Europe/Berlin): \(zone.debugDescription).")
        }
        return zone
    }

    /// `HH:MM`, 00:00 to 23:59, else BAD_USER_INPUT.
    static func requireTime(_ text: String, argument: String) throws -> String {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard text.utf8.count == 5, parts.count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]),
            (0...23).contains(hours), (0...59).contains(minutes)
        else { throw APIError.badInput("\"\(argument)\" must be a time of day as HH:MM (08:00); it is \(text.debugDescription).") }
        return text
    }

    private static func updateProfile(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let fields = input.argument("input") ?? .null
        let database = input.request.database
        let zone = try await fields["timeZone"]?.stringValue.asyncMap {
            try await requireTimeZone($0, argument: "input.timeZone", on: database)
        }
        let looking = fields["lookingForBuddies"]?.boolValue
        return try await database.withTransaction { connection in
            let rows = try await connection.query(
                """
                INSERT INTO habit_profiles AS p (user_id, time_zone, looking_for_buddies)
                SELECT $1, z.zone, coalesce($3, true)
                FROM (SELECT coalesce($2, (SELECT time_zone FROM habit_profiles WHERE user_id = $1)) AS zone) z WHERE z.zone IS NOT NULL
                ON CONFLICT (user_id) DO UPDATE
                  SET time_zone = EXCLUDED.time_zone, looking_for_buddies = coalesce($3, p.looking_for_buddies)
                RETURNING \(HabitProfileRecord.columns)
                """, [viewer, zone, looking])
            guard let row = rows.first else { throw APIError.badInput("Choose a time zone (\"input.timeZone\") first.") }
            // Reminders follow the owner's clock.
            if zone != nil { try await HabitReminder.rescheduleAll(of: viewer, on: connection) }
            return .object(try HabitProfileRecord(row: row))
        }
    }

    /// The habit's kind from `fields`: a catalogue id or a name of one's own, not both.
    private static func kind(_ fields: GraphQLValue, required: Bool) throws -> (catalogue: Int64?, custom: String?)? {
        let catalogue = try fields["catalogueHabitId"]?.stringValue.map {
            try GlobalID.id(of: "CatalogueHabit", $0, argument: "input.catalogueHabitId")
        }
        let custom = fields["customName"]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines)
        switch (catalogue, custom) {
        case (.some, .some): throw APIError.badInput("Give \"catalogueHabitId\" or \"customName\", not both.")
        case (nil, nil):
            if required { throw APIError.badInput("Give \"catalogueHabitId\" (a habit of the list) or \"customName\" (one of your own).") }
            return nil
        case (nil, .some(let name)):
            guard (1...maxCustomName).contains(name.count) else {
                throw APIError.badInput("\"customName\" must be 1 to \(maxCustomName) characters.")
            }
            return (nil, name)
        case (.some(let id), nil): return (id, nil)
        }
    }

    private static func add(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let fields = input.argument("input") ?? .null
        let database = input.request.database
        let kind = try kind(fields, required: true)!
        let reminder = try fields["reminderTime"]?.stringValue.map { try requireTime($0, argument: "input.reminderTime") }
        let zone = try await fields["timeZone"]?.stringValue.asyncMap {
            try await requireTimeZone($0, argument: "input.timeZone", on: database)
        }
        let startedOn = fields["startedOn"]?.stringValue
        return try await HabitBuddiesErrors.translating {
            try await database.withTransaction { connection in
                if let zone {
                    _ = try await connection.query(
                        "INSERT INTO habit_profiles (user_id, time_zone) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING", [viewer, zone])
                }
                let profile = try await connection.query(
                    "SELECT ((now() AT TIME ZONE time_zone)::date)::text FROM habit_profiles WHERE user_id = $1", [viewer])
                guard let today = try profile.first?.decode(String.self, at: 0) else {
                    throw APIError.badInput("Choose your time zone (\"input.timeZone\") with your first habit.")
                }
                if let startedOn, startedOn > today { throw APIError.badInput("\"startedOn\" cannot be in the future.") }
                if try await !connection.query(
                    "SELECT 1 FROM habits WHERE user_id = $1 AND status <> 'ARCHIVED' AND catalogue_id IS NOT DISTINCT FROM $2::int AND lower(btrim(custom_name)) IS NOT DISTINCT FROM lower($3)",
                    [viewer, kind.catalogue, kind.custom]
                ).isEmpty {
                    throw APIError.badInput("You are already forming this habit.")
                }
                let rows: PostgresRows
                do {
                    rows = try await connection.query(
                        """
                        INSERT INTO habits (user_id, catalogue_id, custom_name, started_on, reminder_time)
                        VALUES ($1, $2, $3, coalesce($4::date, $5::date), $6::time) RETURNING id
                        """, [viewer, kind.catalogue, kind.custom, startedOn, today, reminder])
                } catch let error as PostgresError where error.kind == .uniqueViolation {
                    throw APIError.badInput("You are already forming this habit.")
                } catch let error as PostgresError where error.kind == .foreignKeyViolation {
                    throw APIError.notFound("No habit of the list has that id.")
                }
                let id = try rows[0].decode(Int64.self, at: 0)
                try await HabitReminder.reschedule(habit: id, on: connection)
                return .object(try await load(id, on: connection))
            }
        }
    }

    /// The viewer's habit `id`, locked for the change, or NOT_FOUND.
    private static func owned(_ id: Int64, by viewer: Int64, on connection: PostgresConnection) async throws -> HabitRecord {
        let rows = try await connection.query(
            "SELECT \(HabitRecord.columns) \(HabitRecord.from) WHERE h.id = $1 AND h.user_id = $2 FOR UPDATE OF h", [id, viewer])
        guard let row = rows.first else { throw APIError.notFound("You have no habit with that id.") }
        return try HabitRecord(row: row)
    }

    static func load(_ id: Int64, on connection: some PostgresQuerying) async throws -> HabitRecord {
        try HabitRecord(row: try await connection.query("SELECT \(HabitRecord.columns) \(HabitRecord.from) WHERE h.id = $1", [id])[0])
    }

    private static func update(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let id = try input.id("id", of: "Habit")
        let fields = input.argument("input") ?? .null
        let kind = try kind(fields, required: false)
        let reminderGiven = fields["reminderTime"] != nil
        let reminder = try fields["reminderTime"]?.stringValue.map { try requireTime($0, argument: "input.reminderTime") }
        return try await HabitBuddiesErrors.translating {
            try await input.request.database.withTransaction { connection in
                _ = try await owned(id, by: viewer, on: connection)
                do {
                    _ = try await connection.query(
                        """
                        UPDATE habits SET catalogue_id = CASE WHEN $2 THEN $3::int ELSE catalogue_id END,
                                          custom_name = CASE WHEN $2 THEN $4 ELSE custom_name END,
                                          reminder_time = CASE WHEN $5 THEN $6::time ELSE reminder_time END, updated_at = now()
                        WHERE id = $1
                        """, [id, kind != nil, kind?.catalogue, kind?.custom, reminderGiven, reminder])
                } catch let error as PostgresError where error.kind == .uniqueViolation {
                    throw APIError.badInput("You are already forming this habit.")
                } catch let error as PostgresError where error.kind == .foreignKeyViolation {
                    throw APIError.notFound("No habit of the list has that id.")
                }
                try await HabitReminder.reschedule(habit: id, on: connection)
                return .object(try await load(id, on: connection))
            }
        }
    }

    private static func setStatus(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let id = try input.id("id", of: "Habit")
        let status = input.argument("status")?.enumValue ?? ""
        return try await HabitBuddiesErrors.translating {
            try await input.request.database.withTransaction { connection in
                let habit = try await owned(id, by: viewer, on: connection)
                if habit.status == "ARCHIVED", status != "ARCHIVED" {
                    // Coming back from the archive: a habit formed again must not be one already being formed.
                    let twins = try await connection.query(
                        "SELECT 1 FROM habits a JOIN habits b ON b.user_id = a.user_id AND b.match_key = a.match_key AND b.id <> a.id AND b.status <> 'ARCHIVED' WHERE a.id = $1",
                        [id])
                    if !twins.isEmpty { throw APIError.badInput("You are already forming this habit.") }
                }
                _ = try await connection.query("UPDATE habits SET status = $2, updated_at = now() WHERE id = $1", [id, status])
                try await HabitReminder.reschedule(habit: id, on: connection)
                return .object(try await load(id, on: connection))
            }
        }
    }

    /// Marks (or unmarks) a day of the viewer's habit; marking may reach milestones.
    private static func checkIn(_ input: ResolverInput, done: Bool) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let id = try input.id("habitId", of: "Habit")
        let date = input.string("date")
        return try await HabitBuddiesErrors.translating {
            try await input.request.database.withTransaction { connection in
                let habit = try await owned(id, by: viewer, on: connection)
                let day = date ?? habit.today
                guard done else {
                    _ = try await connection.query("DELETE FROM habit_check_ins WHERE habit_id = $1 AND day = $2::date", [id, day])
                    return .object(habit)
                }
                // The trigger refuses a future day, one before the start, or a habit not active.
                _ = try await connection.query(
                    "INSERT INTO habit_check_ins (habit_id, day) VALUES ($1, $2::date) ON CONFLICT DO NOTHING", [id, day])
                let reached = try await connection.query(
                    """
                    INSERT INTO habit_milestones (habit_id, days, reached_on)
                    SELECT habit_id, days, reached_on FROM habit_milestones_reached(ARRAY[$1::bigint], $2::int[])
                    ON CONFLICT DO NOTHING RETURNING days
                    """, [id, milestones])
                for row in reached {
                    let days = try row.decode(Int.self, at: 0)
                    try await Notifications.record(
                        .habitMilestone, for: viewer, actor: nil, subject: NodeReference("Habit", id),
                        message: "\(days) days in a row of \"\(habit.name)\": well done!", on: connection)
                }
                return .object(habit)
            }
        }
    }
}
