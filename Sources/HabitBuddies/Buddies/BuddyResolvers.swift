import Foundation
import GraphQL
import HuddleCore
import HuddlePostgres

/// A buddy pair as one of its two people sees it.
final class BuddyRecord: Sendable {
    let pairID: Int64
    /// Whose buddy this is.
    let viewerID: Int64
    /// The buddy.
    let userID: Int64
    let since: Date

    init(pairID: Int64, viewerID: Int64, userID: Int64, since: Date) {
        self.pairID = pairID
        self.viewerID = viewerID
        self.userID = userID
        self.since = since
    }
}

/// What `swipeBuddy` answers.
struct BuddySwipeResult: Sendable {
    var direction: String
    var buddy: BuddyRecord?
    /// The match this swipe made, when pairs wait for both to confirm.
    var pending: PendingBuddy? = nil
}

/// Buddies: the list, swiping (a right swipe both ways makes the pair, in
/// the database, once), ending a pair, and what a buddy sees of the other.
enum BuddyResolvers {
    /// The most scores `scoresReceived`/`scoresGiven` return.
    static let maxScores = 50

    static func bind(_ binder: inout SchemaBinder) {
        binder.root("Query", "buddies") { input in
            let viewer = try input.request.signedIn()
            return input.request.habitBuddies.buddies(for: input.info).load(viewer) { .list($0.map { .object($0) }) }
        }
        binder.field("User", "isBuddy") { (user: UserRecord, input) in
            guard let viewer = input.request.viewer?.userID else { return .scalar(.boolean(false)) }
            return input.request.habitBuddies.buddies.load(viewer) { buddies in .scalar(.boolean(buddies.contains { $0.userID == user.id }))
            }
        }
        binder.field("Buddy", "user") { (buddy: BuddyRecord, input) in
            input.request.loaders.users(for: input.info).load(buddy.userID) { $0.map { .object($0) } ?? .null }
        }
        binder.field("Buddy", "since") { (buddy: BuddyRecord) in Instant.value(buddy.since) }
        binder.field("Buddy", "habits") { (buddy: BuddyRecord, input) in
            input.request.habitBuddies.userHabits(for: input.info).load(buddy.userID) { .list($0.map { .object($0) }) }
        }
        func scores(_ field: String, byBuddy: Bool) {
            binder.field("Buddy", field) { (buddy: BuddyRecord, input) in
                let first = input.int("first") ?? 5
                guard (0...maxScores).contains(first) else { throw APIError.badInput("\"first\" must be between 0 and \(maxScores).") }
                return input.request.habitBuddies.pairScores.load(buddy.userID) { scores in
                    .list(scores.filter { ($0.scorerID == buddy.userID) == byBuddy }.prefix(first).map { .object($0) })
                }
            }
        }
        scores("scoresReceived", byBuddy: true)
        scores("scoresGiven", byBuddy: false)

        binder.field("BuddySwipeResult", "direction") { (result: BuddySwipeResult) in .scalar(.enum(result.direction)) }
        binder.field("BuddySwipeResult", "buddy") { (result: BuddySwipeResult) in result.buddy.map { .object($0) } ?? .null }
        binder.rootAsync("Mutation", "swipeBuddy", swipe)
        binder.rootAsync("Mutation", "removeBuddy", remove)
    }

    /// The same notice to each of two people, about the other (by them).
    static func tellBoth(
        _ kind: NotificationKind, _ one: Int64, _ other: Int64, _ message: String, on connection: PostgresConnection
    ) async throws {
        for (person, about) in [(one, other), (other, one)] {
            try await Notifications.record(
                kind, for: person, actor: about, subject: NodeReference("User", about), message: message, on: connection)
        }
    }

    /// The pair of `viewer` and `other`, if they are buddies.
    static func pair(of viewer: Int64, and other: Int64, on database: some PostgresQuerying) async throws -> BuddyRecord? {
        let rows = try await database.query(
            "SELECT id, matched_at FROM buddy_pairs WHERE first_id = least($1::bigint, $2::bigint) AND second_id = greatest($1::bigint, $2::bigint)",
            [viewer, other])
        guard let row = rows.first else { return nil }
        return BuddyRecord(pairID: try row.decode(at: 0), viewerID: viewer, userID: other, since: try row.decode(at: 1))
    }

    private static func swipe(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let other = try input.id("userId", of: "User")
        let direction = input.argument("direction")?.enumValue ?? ""
        guard other != viewer else { throw APIError.badInput("You cannot be your own buddy.") }
        let cap = input.request.settings[HabitBuddies.maxBuddies]
        return try await HabitBuddiesErrors.translating {
            try await input.request.database.withTransaction { connection in
                // The database makes the pair (or the match) with the settings the server was given.
                _ = try await connection.query(
                    "SELECT set_config('huddle.max_buddies', $1, true), set_config('huddle.chat_before_pairing', $2, true)",
                    [String(cap), String(input.request.settings[HabitBuddies.chatBeforePairing])])
                // The two profiles in id order, as the database's pairing
                // trigger takes them: from here on no other swipe between
                // the two can make or see the pair, so whether this one made
                // it is known (and told) once.
                _ = try await connection.query(
                    "SELECT 1 FROM habit_profiles WHERE user_id IN ($1, $2) ORDER BY user_id FOR NO KEY UPDATE", [viewer, other])
                let profiles = try await connection.query(
                    "SELECT user_id, habit_buddy_count(user_id) FROM habit_profiles WHERE user_id IN ($1, $2)", [viewer, other])
                let counts = Dictionary(
                    uniqueKeysWithValues: try profiles.map { (try $0.decode(Int64.self, at: 0), try $0.decode(Int.self, at: 1)) })
                guard let mine = counts[viewer] else { throw APIError.badInput("Add a habit first: buddies share habits.") }
                guard counts[other] != nil else { throw APIError.notFound("No one forming habits has that id.") }
                if let existing = try await pair(of: viewer, and: other, on: connection) {
                    return .object(BuddySwipeResult(direction: direction, buddy: existing))
                }
                if direction == "RIGHT", mine >= cap {
                    throw APIError.badInput("You have \(cap) buddies, as many as allowed: end a pair to find another.")
                }
                _ = try await connection.query(
                    """
                    INSERT INTO buddy_swipes (user_id, candidate_id, direction) VALUES ($1, $2, $3)
                    ON CONFLICT (user_id, candidate_id) DO UPDATE SET direction = EXCLUDED.direction, swiped_at = now()
                    """, [viewer, other, direction])
                // A left swipe on someone matched with ends the match.
                if direction == "LEFT" { _ = try await BuddyChat.end(viewer, other, on: connection) }
                guard direction == "RIGHT", let made = try await pair(of: viewer, and: other, on: connection) else {
                    // Or a match, with the fuller flow: both hear, and may chat.
                    let pending = direction == "RIGHT" ? try await BuddyChat.match(of: viewer, and: other, on: connection) : nil
                    if pending?.isNew == true {
                        try await tellBoth(
                            .buddyPending, viewer, other, "You both swiped right: say hello, and confirm when you want to be buddies.",
                            on: connection)
                    }
                    return .object(BuddySwipeResult(direction: direction, buddy: nil, pending: pending))
                }
                // This swipe made the pair: both hear of it.
                try await tellBoth(.buddyMatched, viewer, other, "You have a new accountability buddy.", on: connection)
                return .object(BuddySwipeResult(direction: direction, buddy: made))
            }
        }
    }

    /// Ends the pair; their meetings still to come are cancelled (by the viewer).
    private static func remove(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let other = try input.id("userId", of: "User")
        return try await input.request.database.withTransaction { connection in
            .scalar(.boolean(try await end(viewer, other, because: "the buddy pair has ended", on: connection)))
        }
    }

    /// Ends `person`'s pair with `other`, in the caller's transaction: their
    /// meetings still to come are cancelled by `person` (by no one, when
    /// `person` is `leaving`), and `other` is told why. False when they were
    /// not buddies.
    static func end(_ person: Int64, _ other: Int64, because reason: String, leaving: Bool = false, on connection: PostgresConnection)
        async throws -> Bool
    {
        let removed = try await connection.query(
            "DELETE FROM buddy_pairs WHERE first_id = least($1::bigint, $2::bigint) AND second_id = greatest($1::bigint, $2::bigint) RETURNING id",
            [person, other])
        guard !removed.isEmpty else { return false }
        let cancelled = try await connection.query(
            """
            UPDATE buddy_meetings SET status = 'CANCELLED', cancelled_by = CASE WHEN $3 THEN NULL ELSE $1::bigint END, updated_at = now()
            WHERE ((organizer_id = $1 AND buddy_id = $2) OR (organizer_id = $2 AND buddy_id = $1))
              AND status IN ('PROPOSED', 'ACCEPTED') AND starts_at > now()
            RETURNING id
            """, [person, other, leaving])
        for row in cancelled {
            let meeting = try row.decode(Int64.self, at: 0)
            try await MeetingReminder.cancel(meeting: meeting, on: connection)
            try await Notifications.record(
                .meetingCancelled, for: other, actor: person, subject: NodeReference("Meeting", meeting),
                message: "A meeting was cancelled: \(reason).", on: connection)
        }
        return true
    }
}
