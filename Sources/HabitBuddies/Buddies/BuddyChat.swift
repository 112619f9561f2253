import Foundation
import GraphQL
import HuddleCore
import HuddlePostgres
import HuddleRuntime

/// A match as one of its two people sees it (the fuller matching: two
/// right swipes, a chat, both confirm).
struct PendingBuddy: Sendable {
    var viewerID: Int64
    var userID: Int64
    var matchedAt: Date
    var viewerConfirmed: Bool
    var otherConfirmed: Bool
    /// Made by this transaction (by the swipe that asked).
    var isNew: Bool
}

/// A row of `buddy_messages`.
struct BuddyMessageRecord: Sendable {
    var id: Int64
    var senderID: Int64
    var recipientID: Int64
    var text: String
    var sentAt: Date
    var readAt: Date?

    enum Column: Int, PostgresColumnList {
        case id, senderID, recipientID, text, sentAt, readAt
    }
    static let selection = PostgresColumns<Column>(alias: "m")
    static var columns: String { selection.list }

    init(row: PostgresRow) throws {
        let column = row.columns(Column.self)
        id = try column[.id]
        senderID = try column[.senderID]
        recipientID = try column[.recipientID]
        text = try column[.text]
        sentAt = try column[.sentAt]
        readAt = try column[.readAt]
    }
}

/// A message, as `buddyMessageReceived` delivers it.
struct BuddyMessageEvent: Sendable {
    var message: BuddyMessageRecord
    var notice: NotificationRecord
}

/// The chat between two people matched or paired, and the matches that
/// wait for both to confirm (`chat-before-pairing`).
enum BuddyChat {
    static let maxTextLength = 2000

    static func bind(_ binder: inout SchemaBinder) {
        binder.field("BuddySwipeResult", "pending") { (result: BuddySwipeResult) in result.pending.map { .object($0) } ?? .null }
        binder.field("PendingBuddy", "user") { (pending: PendingBuddy, input) in
            input.request.loaders.users(for: input.info).load(pending.userID) { $0.map { .object($0) } ?? .null }
        }
        binder.field("PendingBuddy", "matchedAt") { (pending: PendingBuddy) in Instant.value(pending.matchedAt) }
        binder.field("PendingBuddy", "viewerConfirmed") { (pending: PendingBuddy) in .scalar(.boolean(pending.viewerConfirmed)) }
        binder.field("PendingBuddy", "otherConfirmed") { (pending: PendingBuddy) in .scalar(.boolean(pending.otherConfirmed)) }

        binder.field("BuddyMessage", "id") { (message: BuddyMessageRecord) in GlobalID.value("BuddyMessage", message.id) }
        binder.field("BuddyMessage", "sender") { (message: BuddyMessageRecord, input) in
            input.request.loaders.users(for: input.info).load(message.senderID) { $0.map { .object($0) } ?? .null }
        }
        binder.field("BuddyMessage", "recipient") { (message: BuddyMessageRecord, input) in
            input.request.loaders.users(for: input.info).load(message.recipientID) { $0.map { .object($0) } ?? .null }
        }
        binder.field("BuddyMessage", "text") { (message: BuddyMessageRecord) in .scalar(.string(message.text)) }
        binder.field("BuddyMessage", "sentAt") { (message: BuddyMessageRecord) in Instant.value(message.sentAt) }
        binder.field("BuddyMessage", "readAt") { (message: BuddyMessageRecord) in message.readAt.map(Instant.value) ?? .null }
        binder.bindConnection("BuddyMessageConnection", edge: "BuddyMessageEdge")

        binder.rootAsync("Query", "pendingBuddies") { input in
            let viewer = try input.request.signedIn()
            let rows = try await input.request.database.query(
                "\(matchSelect) WHERE $1 IN (b.first_id, b.second_id) ORDER BY b.matched_at DESC, other", [viewer])
            return .list(try rows.map { .object(try pending(from: $0, viewer: viewer)) })
        }
        binder.rootAsync("Query", "buddyMessages") { input in
            let viewer = try input.request.signedIn()
            let other = try input.id("userId", of: "User")
            let page = try PageRequest(input)
            let query = KeysetQuery(
                columns: BuddyMessageRecord.columns,
                from: """
                    FROM buddy_messages m
                    WHERE least(m.sender_id, m.recipient_id) = least($1::bigint, $2::bigint)
                      AND greatest(m.sender_id, m.recipient_id) = greatest($1::bigint, $2::bigint)
                    """,
                parameters: [viewer, other], keys: [("m.id", "bigint")], descending: true)
            return .object(try await query.page(page, on: input.request.database) { try BuddyMessageRecord(row: $0) })
        }
        binder.rootAsync("Mutation", "sendBuddyMessage", send)
        binder.rootAsync("Mutation", "markBuddyMessagesRead") { input in
            let viewer = try input.request.signedIn()
            let other = try input.id("userId", of: "User")
            let rows = try await input.request.database.query(
                """
                WITH read AS (
                    UPDATE buddy_messages SET read_at = greatest(now(), sent_at)
                    WHERE recipient_id = $1 AND sender_id = $2 AND read_at IS NULL RETURNING 1
                )
                SELECT count(*)::int FROM read
                """, [viewer, other])
            return .scalar(.int(try rows[0].decode(Int.self, at: 0)))
        }
        binder.rootAsync("Mutation", "confirmBuddy", confirm)
        binder.rootAsync("Mutation", "declineBuddy") { input in
            let viewer = try input.request.signedIn()
            let other = try input.id("userId", of: "User")
            return .scalar(.boolean(try await input.request.database.withTransaction { try await end(viewer, other, on: $0) }))
        }

        SubscriptionResolvers.inbox(&binder, "buddyMessageReceived", kinds: [.buddyMessage]) { notice, database in
            guard let id = notice.reference(to: "BuddyMessage") else { return nil }
            // The notice is the subscriber's own, recorded for the message's recipient.
            let rows = try await database.query("SELECT \(BuddyMessageRecord.columns) FROM buddy_messages m WHERE m.id = $1", [id])
            return try rows.first.map { BuddyMessageEvent(message: try BuddyMessageRecord(row: $0), notice: notice) }
        }
        binder.field("BuddyMessageEvent", "message") { (event: BuddyMessageEvent) in .object(event.message) }
        binder.field("BuddyMessageEvent", "notification") { (event: BuddyMessageEvent) in .object(event.notice) }
    }

    /// A match's columns, the viewer `$1`'s side first.
    private static let matchSelect = """
        SELECT CASE WHEN b.first_id = $1 THEN b.second_id ELSE b.first_id END AS other, b.matched_at,
               CASE WHEN b.first_id = $1 THEN b.first_confirmed ELSE b.second_confirmed END,
               CASE WHEN b.first_id = $1 THEN b.second_confirmed ELSE b.first_confirmed END,
               b.matched_at = now()
        FROM buddy_matches b
        """

    private static func pending(from row: PostgresRow, viewer: Int64) throws -> PendingBuddy {
        PendingBuddy(
            viewerID: viewer, userID: try row.decode(at: 0), matchedAt: try row.decode(at: 1), viewerConfirmed: try row.decode(at: 2),
            otherConfirmed: try row.decode(at: 3), isNew: try row.decode(at: 4))
    }

    /// Ends the match between the two, if there is one, as a left swipe of
    /// `viewer`'s: without it the other's right swipe, when the list comes
    /// round again, would make the match anew. Whether there was one.
    static func end(_ viewer: Int64, _ other: Int64, on connection: PostgresConnection) async throws -> Bool {
        let rows = try await connection.query(
            """
            DELETE FROM buddy_matches WHERE first_id = least($1::bigint, $2::bigint) AND second_id = greatest($1::bigint, $2::bigint)
            RETURNING 1
            """, [viewer, other])
        guard !rows.isEmpty else { return false }
        _ = try await connection.query(
            "UPDATE buddy_swipes SET direction = 'LEFT', swiped_at = now() WHERE user_id = $1 AND candidate_id = $2", [viewer, other])
        return true
    }

    /// The match between the two, if there is one.
    static func match(of viewer: Int64, and other: Int64, on database: some PostgresQuerying) async throws -> PendingBuddy? {
        let rows = try await database.query(
            "\(matchSelect) WHERE b.first_id = least($1::bigint, $2::bigint) AND b.second_id = greatest($1::bigint, $2::bigint)",
            [viewer, other])
        return try rows.first.map { try pending(from: $0, viewer: viewer) }
    }

    private static func send(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let other = try input.id("userId", of: "User")
        let text = input.string("text") ?? ""
        // Kept as written: only a message of nothing but spaces is refused.
        guard (1...maxTextLength).contains(text.unicodeScalars.count), !text.allSatisfy(\.isWhitespace) else {
            throw APIError.badInput("A message is 1 to 2,000 characters, not only spaces.")
        }
        return try await HabitBuddiesErrors.translating {
            try await input.request.database.withTransaction { connection in
                let rows = try await connection.query(
                    """
                    INSERT INTO buddy_messages AS m (sender_id, recipient_id, text) VALUES ($1, $2, $3)
                    RETURNING \(BuddyMessageRecord.columns), (SELECT username FROM users WHERE id = $1)
                    """, [viewer, other, text])
                let message = try BuddyMessageRecord(row: rows[0])
                let sender = try rows[0].decode(String.self, at: rows.columnCount - 1)
                // The notice's text is the message's beginning; the whole is the message.
                let preview = text.count > 140 ? String(text.prefix(139)) + "…" : text
                try await Notifications.record(
                    .buddyMessage, for: other, actor: viewer, subject: NodeReference("BuddyMessage", message.id),
                    message: "\(sender): \(preview)", on: connection)
                return .object(message)
            }
        }
    }

    /// The viewer's side of a match confirmed; the pair made once both are.
    private static func confirm(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let other = try input.id("userId", of: "User")
        let cap = input.request.settings[HabitBuddies.maxBuddies]
        return try await HabitBuddiesErrors.translating {
            try await input.request.database.withTransaction { connection in
                _ = try await connection.query("SELECT set_config('huddle.max_buddies', $1, true)", [String(cap)])
                // The two profiles in id order, as pairing takes them.
                _ = try await connection.query(
                    "SELECT 1 FROM habit_profiles WHERE user_id IN ($1, $2) ORDER BY user_id FOR NO KEY UPDATE", [viewer, other])
                if let existing = try await BuddyResolvers.pair(of: viewer, and: other, on: connection) { return .object(existing) }
                let confirmed = try await connection.query(
                    """
                    UPDATE buddy_matches SET first_confirmed = first_confirmed OR first_id = $1,
                                             second_confirmed = second_confirmed OR second_id = $1
                    WHERE first_id = least($1::bigint, $2::bigint) AND second_id = greatest($1::bigint, $2::bigint)
                    RETURNING first_confirmed AND second_confirmed
                    """, [viewer, other])
                guard let row = confirmed.first else { throw APIError.notFound("You have no match with that user to confirm.") }
                guard try row.decode(Bool.self, at: 0) else { return .null }
                // Both have: the pair (the cap's trigger may refuse it, HB005), which ends the match.
                _ = try await connection.query(
                    "INSERT INTO buddy_pairs (first_id, second_id) VALUES (least($1::bigint, $2::bigint), greatest($1::bigint, $2::bigint))",
                    [viewer, other])
                try await BuddyResolvers.tellBoth(.buddyMatched, viewer, other, "You have a new accountability buddy.", on: connection)
                guard let made = try await BuddyResolvers.pair(of: viewer, and: other, on: connection) else { return .null }
                return .object(made)
            }
        }
    }
}
