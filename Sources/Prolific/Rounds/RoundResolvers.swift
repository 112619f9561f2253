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
        binder.builder.subscribe("Subscription", "roundEnded") { input in
            let context = input.request
            guard let projectArgument = input.string("projectId") else {
                // Every project the viewer follows or wrote in: their inbox.
                return try await SubscriptionResolvers.inboxEvents(input, kinds: [.roundEnded]) { notice, database in
                    guard let round = notice.reference(to: "Round") else { return nil }
                    return try await ended(round, on: database)
                }
            }
            let projectID = try GlobalID.id(of: "Project", projectArgument, argument: "projectId")
            let rows = try await context.database.query(
                "SELECT 1 FROM projects p WHERE p.id = $1 AND \(ProjectRecord.visible(toViewerAt: 2))", [projectID, context.viewer?.userID])
            guard !rows.isEmpty else { throw APIError.notFound("No project has that id.") }
            let events = try await SubscriptionResolvers.listen(context, on: RoundEnd.channel(forProject: projectID))
            let database = context.database
            return AsyncThrowingStream { continuation in
                let task = Task(executorPreference: database.loop) {
                    do {
                        for await event in events {
                            guard case .notification(let notification) = event, let round = Int64(notification.payload) else { continue }
                            if var record = try await ended(round, on: database) {
                                record.notification = notification.sequence
                                continuation.yield(.object(record))
                            }
                        }
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
        binder.root("Subscription", "roundEnded") { input in SubscriptionResolvers.passThrough(input) }
        binder.field("RoundEndedEvent", "project") { (event: RoundEndedRecord, input) in
            input.request.prolific.projects.load(event.projectID) { $0.map { .object($0) } ?? .null }
        }
        binder.field("RoundEndedEvent", "round") { (event: RoundEndedRecord, input) in
            input.request.prolific.rounds.load(event.roundID) { $0.map { .object($0) } ?? .null }
        }
        binder.field("RoundEndedEvent", "winner") { (event: RoundEndedRecord, input) in
            guard let winner = event.winnerID else { return .null }
            return input.request.prolific.snippets.load(winner) { $0.map { .object($0) } ?? .null }
        }
        binder.field("RoundEndedEvent", "nextRound") { (event: RoundEndedRecord, input) in
            guard let next = event.nextRoundID else { return .null }
            return input.request.prolific.rounds.load(next) { $0.map { .object($0) } ?? .null }
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
