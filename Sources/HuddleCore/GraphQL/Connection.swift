import Foundation
import GraphQL
import HuddlePostgres
import HuddleRuntime

/// Relay cursor-connection arguments: `first`/`after` forwards or
/// `last`/`before` backwards, at most `maxPageSize` either way.
package struct PageRequest: Sendable, Hashable {
    package var first: Int?
    package var after: [String]?
    package var last: Int?
    package var before: [String]?

    package static let defaultPageSize = 20
    /// The most edges one page may ask for.
    package static let maxPageSize = 100

    package init(_ input: ResolverInput, maxPageSize: Int = PageRequest.maxPageSize) throws {
        first = input.int("first")
        last = input.int("last")
        if first != nil, last != nil {
            throw APIError.badInput("Pass \"first\" or \"last\", not both.")
        }
        for (name, value) in [("first", first), ("last", last)] {
            if let value, !(0...maxPageSize).contains(value) {
                throw APIError.badInput("\"\(name)\" must be between 0 and \(maxPageSize); it is \(value).")
            }
        }
        after = try input.string("after").map { try Self.keys(of: $0, argument: "after") }
        before = try input.string("before").map { try Self.keys(of: $0, argument: "before") }
        if first == nil, last == nil { first = Self.defaultPageSize }
    }

    /// The first `size` items, with no cursor.
    package init(first size: Int) {
        first = size
    }

    package var isBackward: Bool { last != nil }
    package var size: Int { last ?? first ?? Self.defaultPageSize }

    /// A cursor is opaque to clients: base64url of the sort keys.
    package static func cursor(_ keys: [String]) -> String {
        Base64URL.encode("c\u{1F}" + keys.joined(separator: "\u{1F}"))
    }

    package static func keys(of cursor: String, argument: String) throws -> [String] {
        guard cursor.utf8.count <= 500, let text = Base64URL.decode(cursor), text.hasPrefix("c\u{1F}")
        else { throw APIError.badInput("\"\(argument)\" is not a cursor this list gave out.") }
        return text.dropFirst(2).split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
    }
}

/// One page of a connection, its nodes still as rows.
package struct ConnectionPage: Sendable {
    /// A class, so that the executor resolves its fields on the instance
    /// (one class check per edge) and a list of edges costs no boxes.
    package final class Edge: Sendable {
        package let cursor: String
        package let node: any Sendable

        package init(cursor: String, node: any Sendable) {
            self.cursor = cursor
            self.node = node
        }
    }
    package var edges: [Edge]
    package var hasNextPage: Bool
    package var hasPreviousPage: Bool
    /// The size of the whole list, for connections that offer it (through a
    /// loader, so that a list of connections counts in one statement).
    package var totalCount: (@Sendable () -> Resolved)?

    package init(edges: [Edge], hasNextPage: Bool, hasPreviousPage: Bool, totalCount: (@Sendable () -> Resolved)? = nil) {
        self.edges = edges
        self.hasNextPage = hasNextPage
        self.hasPreviousPage = hasPreviousPage
        self.totalCount = totalCount
    }
}

/// One owner's page of a list (a user's friends, a project's rounds), as
/// a pages loader takes it.
package struct OwnedPage: Hashable, Sendable {
    package var owner: Int64
    package var page: PageRequest

    package init(owner: Int64, page: PageRequest) {
        self.owner = owner
        self.page = page
    }
}

/// Keyset pagination: the list's order is a tuple of sort keys ending in a
/// unique one, so a cursor is the tuple of its row and a page is one index
/// range, however deep the page.
package struct KeysetQuery {
    /// `SELECT` list of the node's columns.
    package var columns: String
    /// `FROM ... WHERE ...` (the filter; `WHERE true` for none).
    package var from: String
    package var parameters: [any PostgresEncodable]
    /// The sort keys with their SQL types, most significant first.
    package var keys: [(expression: String, type: String)]
    /// The list's natural order is descending (newest first).
    package var descending = false

    package init(
        columns: String, from: String, parameters: [any PostgresEncodable], keys: [(expression: String, type: String)],
        descending: Bool = false
    ) {
        self.columns = columns
        self.from = from
        self.parameters = parameters
        self.keys = keys
        self.descending = descending
    }

    /// Fetches the page `request` asks for and makes each row a node.
    package func page<Node: Sendable>(
        _ request: PageRequest, on database: some PostgresQuerying,
        node: (PostgresRow) throws -> Node
    ) async throws -> ConnectionPage {
        let (sql, parameters) = try statement(for: request)
        let rows = try await database.query(sql, parameters)
        return try page(of: Array(rows), keyStart: rows.columnCount - keys.count, request, node)
    }

    /// Related rows a page's statement brings along, joined once the page
    /// is cut: only the page's rows are joined, whatever the page is read
    /// by (an index in its order, or every row of a search sorted). `joins`
    /// names the page's columns as `page.<name>` (`LEFT JOIN users u ON
    /// u.id = page.creator_id`); `columns` (`count` of them) come after the
    /// page's own.
    package struct Joined {
        package var columns: String
        package var count: Int
        package var joins: String

        package init(columns: String, count: Int, joins: String) {
            self.columns = columns
            self.count = count
            self.joins = joins
        }
    }

    /// `page`, with `joined` brought along: `node` is given each row and
    /// where the joined columns start in it.
    package func page<Node: Sendable>(
        _ request: PageRequest, on database: some PostgresQuerying, joining joined: Joined,
        node: (PostgresRow, _ joinedStart: Int) throws -> Node
    ) async throws -> ConnectionPage {
        // The page is cut by its own ORDER BY … LIMIT (a top-N sort where
        // the rows are sorted) and put back in that order by its keys, which
        // it selects as they are: numbering its rows under the LIMIT would
        // make PostgreSQL sort every row it reaches in full.
        let (inner, parameters) = try statement(for: request, sortKeys: true)
        let direction = request.isBackward == descending ? "ASC" : "DESC"
        let order = keys.indices.map { "page.sort_key_\($0) \(direction)" }.joined(separator: ", ")
        let sql = "SELECT page.*, \(joined.columns) FROM (\(inner)) AS page \(joined.joins) ORDER BY \(order)"
        let rows = try await database.query(sql, parameters)
        // Columns: the node's, its keys as text, its keys as they are, the joined ones.
        let joinedStart = rows.columnCount - joined.count
        return try page(of: Array(rows), keyStart: joinedStart - 2 * keys.count, request) { try node($0, joinedStart) }
    }

    /// The page `request` asks for of each owner's list, in one statement:
    /// `from` names the owner as `owner.id` (a list of users' friends:
    /// `... WHERE f.user_id = owner.id`), and each owner's page is an index
    /// range of its own, read under a LATERAL join.
    package func pages<Node: Sendable>(
        _ request: PageRequest, owners: [Int64], on database: some PostgresQuerying,
        node: (PostgresRow) throws -> Node
    ) async throws -> [Int64: ConnectionPage] {
        var (inner, parameters) = try statement(for: request, numbered: true)
        parameters.append(owners)
        let sql = """
            SELECT page.*, owner.id FROM unnest($\(parameters.count)::bigint[]) WITH ORDINALITY AS owner(id, position)
            CROSS JOIN LATERAL (\(inner)) AS page ORDER BY owner.position, page.row_number
            """
        let rows = try await database.query(sql, parameters)
        // Columns: the node's, its sort keys, the row's number in its page, the owner.
        let ownerColumn = rows.columnCount - 1
        let keyStart = ownerColumn - 1 - keys.count
        var byOwner: [Int64: [PostgresRow]] = [:]
        for row in rows { byOwner[try row.decode(Int64.self, at: ownerColumn), default: []].append(row) }
        var pages: [Int64: ConnectionPage] = [:]
        for owner in owners where pages[owner] == nil {
            pages[owner] = try page(of: byOwner[owner] ?? [], keyStart: keyStart, request, node)
        }
        return pages
    }

    /// A loader of owners' pages of the list `query` makes (its `from`
    /// naming the owner as `owner.id`): one statement per distinct page
    /// request (the same arguments for every parent of a list), whatever
    /// the owners.
    package static func loader<Node: Sendable>(
        on database: PostgresPool, _ query: @escaping @Sendable () -> KeysetQuery,
        node: @escaping @Sendable (PostgresRow) throws -> Node
    ) -> DataLoader<OwnedPage, ConnectionPage> {
        DataLoader { keys in
            var pages: [OwnedPage: ConnectionPage] = [:]
            for request in Set(keys.map(\.page)) {
                let owners = keys.filter { $0.page == request }.map(\.owner)
                for (owner, page) in try await query().pages(request, owners: owners, on: database, node: node) {
                    pages[OwnedPage(owner: owner, page: request)] = page
                }
            }
            return keys.map { .success(pages[$0]!) }
        }
    }

    /// The SELECT for one page, with its parameters; `numbered` adds each
    /// row's position in the page (for `pages`), `sortKeys` the sort keys
    /// as they are (`sort_key_0`, …; for `page(_:on:joining:node:)`).
    package func statement(
        for request: PageRequest, numbered: Bool = false, sortKeys: Bool = false
    ) throws -> (String, [any PostgresEncodable]) {
        var parameters = parameters
        var conditions: [String] = []
        func bound(_ cursor: [String], forwards: Bool) throws {
            guard cursor.count == keys.count else { throw APIError.badInput("The cursor does not belong to this list.") }
            let placeholders = keys.enumerated().map { index, key in
                parameters.append(cursor[index])
                return "$\(parameters.count)::\(key.type)"
            }
            // Forwards in the list's order means "greater" for ascending lists.
            let comparison = forwards != descending ? ">" : "<"
            conditions.append("(\(keys.map(\.expression).joined(separator: ", "))) \(comparison) (\(placeholders.joined(separator: ", ")))")
        }
        if let after = request.after { try bound(after, forwards: true) }
        if let before = request.before { try bound(before, forwards: false) }
        // Backwards pages are read in reverse order, then turned around.
        let ascending = request.isBackward == descending
        let order = keys.map { "\($0.expression) \(ascending ? "ASC" : "DESC")" }.joined(separator: ", ")
        // Named, so that a statement around this one can name the node's
        // own columns (`id`) without meeting a key of the same name.
        var keyColumns = keys.indices.map { "(\(keys[$0].expression))::text AS cursor_key_\($0)" }.joined(separator: ", ")
        if sortKeys { keyColumns += keys.indices.map { ", \(keys[$0].expression) AS sort_key_\($0)" }.joined() }
        let whereClause = conditions.isEmpty ? "" : " AND " + conditions.joined(separator: " AND ")
        parameters.append(request.size + 1)
        let number = numbered ? ", row_number() OVER (ORDER BY \(order)) AS row_number" : ""
        let sql = "SELECT \(columns), \(keyColumns)\(number) \(from)\(whereClause) ORDER BY \(order) LIMIT $\(parameters.count)"
        return (sql, parameters)
    }

    /// A page from its rows (one more than the page when there are more),
    /// whose sort keys are the columns from `keyStart` on.
    private func page<Node: Sendable>(
        of rows: [PostgresRow], keyStart: Int, _ request: PageRequest, _ node: (PostgresRow) throws -> Node
    ) throws -> ConnectionPage {
        var edges: [ConnectionPage.Edge] = []
        edges.reserveCapacity(min(rows.count, request.size))
        for row in rows.prefix(request.size) {
            let cursor = try (keyStart..<keyStart + keys.count).map { try row.decode(String.self, at: $0) }
            edges.append(ConnectionPage.Edge(cursor: PageRequest.cursor(cursor), node: try node(row)))
        }
        let more = rows.count > request.size
        if request.isBackward {
            edges.reverse()
            return ConnectionPage(edges: edges, hasNextPage: request.before != nil, hasPreviousPage: more)
        }
        return ConnectionPage(edges: edges, hasNextPage: more, hasPreviousPage: request.after != nil)
    }
}

extension SchemaBinder {
    /// Binds a connection type, its edge type and PageInfo's use of the page.
    package mutating func bindConnection(_ connection: String, edge: String, totalCount: Bool = false) {
        field(connection, "edges") { (page: ConnectionPage) in .list(page.edges.map { .object($0) }) }
        field(connection, "pageInfo") { (page: ConnectionPage) in .object(page) }
        if totalCount {
            field(connection, "totalCount") { (page: ConnectionPage) in page.totalCount?() ?? .null }
        }
        field(edge, "cursor") { (edge: ConnectionPage.Edge) in .scalar(.string(edge.cursor)) }
        field(edge, "node") { (edge: ConnectionPage.Edge) in .object(edge.node) }
    }

    /// PageInfo, shared by every connection.
    package mutating func bindPageInfo() {
        field("PageInfo", "hasNextPage") { (page: ConnectionPage) in .scalar(.boolean(page.hasNextPage)) }
        field("PageInfo", "hasPreviousPage") { (page: ConnectionPage) in .scalar(.boolean(page.hasPreviousPage)) }
        field("PageInfo", "startCursor") { (page: ConnectionPage) in page.edges.first.map { .scalar(.string($0.cursor)) } ?? .null }
        field("PageInfo", "endCursor") { (page: ConnectionPage) in page.edges.last.map { .scalar(.string($0.cursor)) } ?? .null }
    }
}
