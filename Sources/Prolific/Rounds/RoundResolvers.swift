import Foundation
import GraphQL
import HuddleCore
import HuddlePostgres

/// A round that ended, as `roundEnded` delivers it.
struct RoundEndedRecord: SharedSourceEvent, Hashable {
    var projectID: Int64
    var roundID: Int64
    var winnerID: Int64?
    var nextRoundID: Int64?
    /// The winner and the next round are to be read (the notification of
    /// a server before this one named the round alone).
    var isPartial = false
    /// The listener's number for the project's notification, the same for
    /// every subscriber of this process, who share one run of the event;
    /// nil when it came from one viewer's inbox.
    var notification: UInt64? = nil

    var occurrence: SharingKey? { notification.map { _ in SharingKey(self) } }
}

/// Rounds: their fields, `round(id:)` and `roundEnded`.
enum RoundResolvers {
    static func bind(_ binder: inout SchemaBinder) {
        binder.field("Round", "id") { (round: RoundRecord) in GlobalID.value("Round", round.id) }
        binder.field("Round", "number") { (round: RoundRecord) in .scalar(.int(round.number)) }
        binder.field("Round", "startedAt") { (round: RoundRecord) in Instant.value(round.startedAt) }
        binder.field("Round", "endsAt") { (round: RoundRecord) in Instant.value(round.endsAt) }
        binder.field("Round", "isComplete") { (round: RoundRecord) in .scalar(.boolean(round.completedAt != nil)) }
        binder.field("Round", "completedAt") { (round: RoundRecord) in round.completedAt.map(Instant.value) ?? .null }
        binder.field("Round", "extensions") { (round: RoundRecord) in .scalar(.int(round.extensions)) }
        binder.field("Round", "project") { (round: RoundRecord, input) in
            input.request.prolific.projects.load(round.projectID) { $0.map { .object($0) } ?? .null }
        }
        binder.field("Round", "winner") { (round: RoundRecord, input) in
            guard let winner = round.winnerID else { return .null }
            return input.request.prolific.snippets.load(winner) { $0.map { .object($0) } ?? .null }
        }
        binder.field("Round", "snippets") { (round: RoundRecord, input) in
            let first = try ListSlice(input, maxCount: ListSlice.maxCount)
            return input.request.prolific.rankedSnippets.load(round.id) { .list(first.of($0).map { .object($0) }) }
        }
        binder.field("Round", "snippetCount") { (round: RoundRecord, input) in
            input.request.prolific.snippetCounts.load(round.id) { .scalar(.int($0)) }
        }
        binder.bindConnection("RoundConnection", edge: "RoundEdge")
        binder.root("Query", "round") { input in
            guard let id = GlobalID.decode(input.string("id") ?? ""), id.type == "Round" else { return .null }
            return input.request.prolific.rounds.load(id.id) { $0.map { .object($0) } ?? .null }
        }
        bindRoundEnded(&binder)
    }

    private static func bindRoundEnded(_ binder: inout SchemaBinder) {
        binder.builder.subscribe(
            "Subscription", "roundEnded",
            feed: { input in
                let context = input.request
                guard let projectArgument = input.string("projectId") else {
                    // Every project the viewer follows or wrote in: their inbox.
                    return SourceEventFeed(
                        reading: try await SubscriptionResolvers.inboxEvents(input, kinds: [.roundEnded]) { notice, database in
                            guard let round = notice.reference(to: "Round") else { return nil }
                            return try await ended(round, on: database)
                        })
                }
                let projectID = try GlobalID.id(of: "Project", projectArgument, argument: "projectId")
                let rows = try await context.database.query(
                    "SELECT 1 FROM projects p WHERE p.id = $1 AND \(ProjectRecord.visible(toViewerAt: 2))",
                    [projectID, context.viewer?.userID])
                guard !rows.isEmpty else { throw APIError.notFound("No project has that id.") }
                // A feed: the notification says all the event is, so its
                // subscribers wait with no task and share one run of it.
                return try await SubscriptionResolvers.feed(context, on: RoundEnd.channel(forProject: projectID)) { notification in
                    (event(projectID, notification).map { .object($0) }, false)
                }
            })
        binder.root("Subscription", "roundEnded") { input in SubscriptionResolvers.passThrough(input) }
        binder.field("RoundEndedEvent", "project") { (event: RoundEndedRecord, input) in
            input.request.prolific.projects.load(event.projectID) { $0.map { .object($0) } ?? .null }
        }
        binder.field("RoundEndedEvent", "round") { (event: RoundEndedRecord, input) in
            input.request.prolific.rounds.load(event.roundID) { $0.map { .object($0) } ?? .null }
        }
        binder.field("RoundEndedEvent", "winner") { (event: RoundEndedRecord, input) in
            whole(event, input) { event in
                guard let winner = event.winnerID else { return .null }
                return input.request.prolific.snippets.load(winner) { $0.map { .object($0) } ?? .null }
            }
        }
        binder.field("RoundEndedEvent", "nextRound") { (event: RoundEndedRecord, input) in
            whole(event, input) { event in
                guard let next = event.nextRoundID else { return .null }
                return input.request.prolific.rounds.load(next) { $0.map { .object($0) } ?? .null }
            }
        }
    }

    /// The event a round end's notification (`RoundEnd.payload`) tells of.
    private static func event(_ projectID: Int64, _ notification: PostgresNotification) -> RoundEndedRecord? {
        let parts = notification.payload.split(separator: " ").map { Int64($0) }
        guard (1...3).contains(parts.count), let roundID = parts[0] else { return nil }
        var record = RoundEndedRecord(projectID: projectID, roundID: roundID, notification: notification.sequence)
        guard parts.count > 1 else {
            record.isPartial = true
            return record
        }
        guard let winnerID = parts[1] else { return nil }
        record.winnerID = winnerID
        if parts.count == 3 {
            guard let nextRoundID = parts[2] else { return nil }
            record.nextRoundID = nextRoundID
        }
        return record
    }

    /// `resolve` with the whole event: a partial one's winner and next round read first.
    private static func whole(
        _ event: RoundEndedRecord, _ input: ResolverInput, _ resolve: @escaping @Sendable (RoundEndedRecord) -> Resolved
    ) -> Resolved {
        guard event.isPartial else { return resolve(event) }
        let database = input.request.database
        return .async {
            guard let read = try await ended(event.roundID, on: database) else { return .null }
            return resolve(read)
        }
    }

    /// The event for round `id`, once it has ended.
    private static func ended(_ id: Int64, on database: PostgresPool) async throws -> RoundEndedRecord? {
        let rows = try await database.query(
            """
            SELECT r.project_id, r.winner_id, n.id FROM rounds r
            LEFT JOIN rounds n ON n.project_id = r.project_id AND n.number = r.number + 1
            WHERE r.id = $1 AND r.completed_at IS NOT NULL
            """, [id])
        guard let row = rows.first else { return nil }
        return RoundEndedRecord(
            projectID: try row.decode(at: 0), roundID: id, winnerID: try row.decode(at: 1), nextRoundID: try row.decode(at: 2))
    }
}
