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
        users = DataLoader { ids in
            let rows = try await database.query("SELECT \(UserRecord.columns) FROM users u WHERE u.id = ANY($1::bigint[])", [ids])
            return try Self.byID(ids, rows) { try UserRecord(row: $0) }
        }
        userNames = DataLoader { ids in
            let rows = try await database.query("SELECT \(UserRecord.nameColumns) FROM users u WHERE u.id = ANY($1::bigint[])", [ids])
            return try Self.byID(ids, rows) { try UserRecord(namesFrom: $0) }
        }
        locations = DataLoader { ids in
            let rows = try await database.query("SELECT \(LocationRecord.columns) FROM locations l WHERE l.id = ANY($1::bigint[])", [ids])
            return try Self.byID(ids, rows) { try LocationRecord(row: $0) }
        }
        sessions = DataLoader { ids in
            let rows = try await database.query("SELECT \(SessionRecord.columns) FROM sports_sessions s WHERE s.id = ANY($1::bigint[])", [ids])
            return try Self.byID(ids, rows) { try SessionRecord(row: $0) }
        }
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
        invitations = DataLoader { ids in
            let rows = try await database.query("SELECT \(InvitationRecord.columns) FROM invitations i WHERE i.id = ANY($1::bigint[])", [ids])
            return try Self.byID(ids, rows) { try InvitationRecord(row: $0) }
        }
        friendRequests = DataLoader { ids in
            let rows = try await database.query("SELECT \(FriendRequestRecord.columns) FROM friend_requests r WHERE r.id = ANY($1::bigint[])", [ids])
            return try Self.byID(ids, rows) { try FriendRequestRecord(row: $0) }
        }
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
