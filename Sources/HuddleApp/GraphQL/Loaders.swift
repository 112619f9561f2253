import GraphQL
import HuddleRuntime

/// The batching loaders of one operation: every edge from a list of rows to
/// related rows goes through one of these, so a level of a query costs one
/// statement however many parents it has.
final class Loaders: Sendable {
    let users: DataLoader<Int64, UserRecord?>
    /// Users with their names only, for selections that ask no more
    /// (`UserRecord.fieldsAnsweredByNames`): a narrower statement.
    let userNames: DataLoader<Int64, UserRecord?>
    let locations: DataLoader<Int64, LocationRecord?>
    let sessions: DataLoader<Int64, SessionRecord?>
    let friendCounts: DataLoader<Int64, Int>
    /// Whether the viewer is friends with each user.
    let viewerFriends: DataLoader<Int64, Bool>
    /// Whether the viewer plays in each session.
    let viewerSessions: DataLoader<Int64, Bool>
    let statistics: DataLoader<Int64, UserStatistics>
    let invitations: DataLoader<Int64, InvitationRecord?>
    let friendRequests: DataLoader<Int64, FriendRequestRecord?>

    init(database: PostgresPool, viewerID: Int64?) {
        users = Self.byID(database, UserRecord.columns, from: "users", as: "u") { try UserRecord(row: $0) }
        userNames = Self.byID(database, UserRecord.nameColumns, from: "users", as: "u") { try UserRecord(namesFrom: $0) }
        locations = Self.byID(database, LocationRecord.columns, from: "locations", as: "l") { try LocationRecord(row: $0) }
        sessions = Self.byID(database, SessionRecord.columns, from: "sports_sessions", as: "s") { try SessionRecord(row: $0) }
        friendCounts = DataLoader { ids in
            let rows = try await database.query(
                "SELECT user_id, count(*)::int FROM friendships WHERE user_id = ANY($1::bigint[]) GROUP BY user_id", [ids])
            var counts: [Int64: Int] = [:]
            for row in rows { counts[try row.decode(Int64.self, at: 0)] = try row.decode(Int.self, at: 1) }
            return ids.map { .success(counts[$0] ?? 0) }
        }
        viewerFriends = DataLoader { ids in
            guard let viewerID else { return ids.map { _ in .success(false) } }
            let rows = try await database.query(
                "SELECT friend_id FROM friendships WHERE user_id = $1 AND friend_id = ANY($2::bigint[])", [viewerID, ids])
            let friends = Set(try rows.map { try $0.decode(Int64.self, at: 0) })
            return ids.map { .success(friends.contains($0)) }
        }
        statistics = DataLoader { ids in try await StatisticsResolvers.load(ids, on: database) }
        invitations = Self.byID(database, InvitationRecord.columns, from: "invitations", as: "i") { try InvitationRecord(row: $0) }
        friendRequests = Self.byID(database, FriendRequestRecord.columns, from: "friend_requests", as: "r") { try FriendRequestRecord(row: $0) }
        viewerSessions = DataLoader { ids in
            guard let viewerID else { return ids.map { _ in .success(false) } }
            let rows = try await database.query(
                "SELECT session_id FROM session_players WHERE user_id = $1 AND session_id = ANY($2::bigint[])", [viewerID, ids])
            let joined = Set(try rows.map { try $0.decode(Int64.self, at: 0) })
            return ids.map { .success(joined.contains($0)) }
        }
    }

    /// The users loader that answers what `info` selects: the names-only
    /// one when that is all the selection asks for.
    func users(for info: ResolveInfo) -> DataLoader<Int64, UserRecord?> {
        info.selectedFieldNames.isSubset(of: UserRecord.fieldsAnsweredByNames) ? userNames : users
    }

    /// A loader of rows by primary key: `SELECT columns FROM table alias
    /// WHERE alias.id = ANY(ids)`, one result per id (nil where none).
    static func byID<Record: Identified>(
        _ database: PostgresPool, _ columns: String, from table: String, as alias: String,
        _ record: @escaping @Sendable (PostgresRow) throws -> Record
    ) -> DataLoader<Int64, Record?> {
        let sql = "SELECT \(columns) FROM \(table) \(alias) WHERE \(alias).id = ANY($1::bigint[])"
        return DataLoader { ids in try byID(ids, try await database.query(sql, [ids]), record) }
    }

    /// One result per id, in the ids' order; nil where no row has the id.
    static func byID<Record: Identified>(
        _ ids: [Int64], _ rows: PostgresRows, _ record: (PostgresRow) throws -> Record
    ) throws -> [Result<Record?, any Error>] {
        var found: [Int64: Record] = [:]
        found.reserveCapacity(rows.count)
        for row in rows {
            let value = try record(row)
            found[value.id] = value
        }
        return ids.map { .success(found[$0]) }
    }
}

/// A row with a bigint primary key.
protocol Identified: Sendable {
    var id: Int64 { get }
}
