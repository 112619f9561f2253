import GraphQL
import HuddlePostgres
import HuddleRuntime

/// The batching loaders of one operation for the shared types: every edge
/// from a list of rows to related rows goes through one of these (or an
/// app's `RequestLoaders`), so a level of a query costs one statement
/// however many parents it has.
package final class Loaders: Sendable {
    private enum Slot: Int, CaseIterable {
        case users, userNames, friendCounts, viewerFriends, friendRequests, friendPages
    }
    private let slots = LoaderSlots<Slot>()
    private let database: PostgresPool
    private let viewer: LoaderViewer
    /// Read by the loaders whose rows depend on who asks, when they are made.
    private var viewerID: Int64? { viewer.userID }

    package init(database: PostgresPool, viewer: LoaderViewer) {
        self.database = database
        self.viewer = viewer
    }

    package var users: DataLoader<Int64, UserRecord?> {
        slots.loader(.users) { Self.byID(database, UserRecord.columns, from: "users", as: "u") { try UserRecord(row: $0) } }
    }
    /// Users with their names only, for selections that ask no more
    /// (`UserRecord.fieldsAnsweredByNames`): a narrower statement.
    package var userNames: DataLoader<Int64, UserRecord?> {
        slots.loader(.userNames) { Self.byID(database, UserRecord.nameColumns, from: "users", as: "u") { try UserRecord(namesFrom: $0) } }
    }
    package var friendCounts: DataLoader<Int64, Int> {
        slots.loader(.friendCounts) {
            Self.counts(database, "SELECT user_id, count(*)::int FROM friendships WHERE user_id = ANY($1::bigint[]) GROUP BY user_id")
        }
    }
    /// Whether the viewer is friends with each user.
    package var viewerFriends: DataLoader<Int64, Bool> {
        slots.loader(.viewerFriends) {
            Self.viewerSet(database, viewerID, in: "friendships", viewerColumn: "user_id", idColumn: "friend_id")
        }
    }
    package var friendRequests: DataLoader<Int64, FriendRequestRecord?> {
        slots.loader(.friendRequests) {
            Self.byID(database, FriendRequestRecord.columns, from: "friend_requests", as: "r") { try FriendRequestRecord(row: $0) }
        }
    }
    /// Users' pages of friends: one statement per distinct page request
    /// (the same arguments for every user of a list), whatever the users.
    package var friendPages: DataLoader<OwnedPage, ConnectionPage> {
        slots.loader(.friendPages) {
            KeysetQuery.loader(on: database) {
                KeysetQuery(
                    columns: UserRecord.columns,
                    from: "FROM friendships f JOIN users u ON u.id = f.friend_id WHERE f.user_id = owner.id",
                    parameters: [], keys: [("lower(u.username)", "text"), ("u.id", "bigint")]
                )
            } node: {
                try UserRecord(row: $0)
            }
        }
    }

    /// Gives the user loaders a user read with `UserRecord.columns` (by a
    /// join elsewhere), so that neither reads it again.
    package func prime(_ user: UserRecord) {
        users.prime(user.id, user)
        userNames.prime(user.id, user)
    }

    /// `prime` with the user of a row's `UserRecord.columns` at `offset`, read
    /// by an outer join: none when they are NULL (a deleted account's place).
    package func primeUser(from row: PostgresRow, offset: Int) throws {
        guard try row.decode(Int64?.self, at: offset) != nil else { return }
        prime(try UserRecord(row: row, offset: offset))
    }

    /// As `primeUser(from:offset:)`, for a user read with
    /// `UserRecord.nameColumns`: only the names-only loader is given it
    /// (the whole-row loader still reads its own).
    package func primeUserNames(from row: PostgresRow, offset: Int) throws {
        guard try row.decode(Int64?.self, at: offset) != nil else { return }
        let user = try UserRecord(namesFrom: row, offset: offset)
        userNames.prime(user.id, user)
    }

    /// `primeUser(from:offset:)`, or `primeUserNames(from:offset:)` for a
    /// user read with `UserRecord.nameColumns` (`namesOnly`).
    package func primeUser(from row: PostgresRow, offset: Int, namesOnly: Bool) throws {
        try namesOnly ? primeUserNames(from: row, offset: offset) : primeUser(from: row, offset: offset)
    }

    /// The users loader that answers what `info` selects: the names-only
    /// one when that is all the selection asks for, besides `answeredByID`
    /// (an app's fields of User that read only the user's id).
    package func users(for info: ResolveInfo, answeredByID: Set<String> = []) -> DataLoader<Int64, UserRecord?> {
        UserRecord.namesAnswer(info.selectedFieldNames, answeredByID: answeredByID) ? userNames : users
    }

    /// A loader of rows by primary key: `SELECT columns FROM table alias
    /// WHERE alias.id = ANY(ids)`, one result per id (nil where none).
    /// Inlinable, as the two below: a loader made in generic code is
    /// generic code, and looked up its types' metadata on every load.
    @inlinable
    package static func byID<Record: Identified>(
        _ database: PostgresPool, _ columns: String, from table: String, as alias: String,
        _ record: @escaping @Sendable (PostgresRow) throws -> Record
    ) -> DataLoader<Int64, Record?> {
        let sql = "SELECT \(columns) FROM \(table) \(alias) WHERE \(alias).id = ANY($1::bigint[])"
        return DataLoader { ids in try byID(ids, try await database.query(sql, [ids]), record) }
    }

    /// Which of the ids have a row in `table` with the viewer in column
    /// `viewerColumn` and the id in column `idColumn`; all false without a
    /// viewer.
    ///
    /// Each id is looked up on its own (`existsPerRow`): asked as
    /// `viewer = $1 AND id = ANY($2)`, the generic plan read the viewer's
    /// rows through an index that leads with the viewer and filtered them
    /// by id, all 10,000 sessions of someone who had played that many to
    /// answer for a page of 20.
    package static func viewerSet(
        _ database: PostgresPool, _ viewerID: Int64?, in table: String, viewerColumn: String, idColumn: String
    ) -> DataLoader<Int64, Bool> {
        let sql = viewerSetStatement(in: table, viewerColumn: viewerColumn, idColumn: idColumn)
        return DataLoader { ids in
            guard let viewerID else { return ids.map { _ in .success(false) } }
            let found = Set(try await database.query(sql, [viewerID, ids]).map { try $0.decode(Int64.self, at: 0) })
            return ids.map { .success(found.contains($0)) }
        }
    }

    /// `viewerSet`'s statement: the viewer is $1, the ids $2.
    package static func viewerSetStatement(in table: String, viewerColumn: String, idColumn: String) -> String {
        """
        SELECT i.id FROM unnest($2::bigint[]) AS i(id)
        WHERE \(existsPerRow("SELECT 1 FROM \(table) t WHERE t.\(viewerColumn) = $1 AND t.\(idColumn) = i.id"))
        """
    }

    /// A count for each id: `sql` takes the ids as $1 and returns (id, count)
    /// rows; 0 for an id it leaves out.
    package static func counts(_ database: PostgresPool, _ sql: String) -> DataLoader<Int64, Int> {
        DataLoader { ids in
            var counts: [Int64: Int] = [:]
            for row in try await database.query(sql, [ids]) { counts[try row.decode(Int64.self, at: 0)] = try row.decode(Int.self, at: 1) }
            return ids.map { .success(counts[$0] ?? 0) }
        }
    }

    /// The rows' values grouped by the key each row gives, one list per id
    /// in the ids' order (empty where no row has the id), each in the rows' order.
    @inlinable
    package static func grouped<Value>(
        _ ids: [Int64], _ rows: PostgresRows, _ entry: (PostgresRow) throws -> (key: Int64, value: Value)
    ) throws -> [Result<[Value], any Error>] {
        var groups: [Int64: [Value]] = [:]
        for row in rows {
            let (key, value) = try entry(row)
            groups[key, default: []].append(value)
        }
        return ids.map { .success(groups[$0] ?? []) }
    }

    /// One result per id, in the ids' order; nil where no row has the id.
    @inlinable
    package static func byID<Record: Identified>(
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
package protocol Identified: Sendable {
    var id: Int64 { get }
}

/// An app's loaders for one operation, made on first use by
/// `RequestContext.loaders(_:)`, with the operation's shared loaders (which
/// its batches may prime with the users they join).
package protocol RequestLoaders: AnyObject, Sendable {
    init(database: PostgresPool, viewer: LoaderViewer, shared: Loaders)
}

/// Who is asking, as an operation's loaders see it: read only by the
/// loaders whose rows depend on it, as they are made (a loader is made
/// when a resolver first asks for it). The read is what marks a run as
/// the viewer's own (`ViewerScopedContext`, issue 42): a subscription
/// whose loaders never ask who is asking shares its runs between viewers.
package struct LoaderViewer: Sendable {
    private let read: @Sendable () -> Int64?

    package init(reading read: @escaping @Sendable () -> Int64?) {
        self.read = read
    }

    /// The signed-in user's id, or nil; noted as read.
    package var userID: Int64? { read() }
}
