import GraphQL
import HuddleCore
import HuddlePostgres
import HuddleRuntime

/// A user's Prolific side: karma, badges, projects and snippets.
enum WriterResolvers {
    /// Prolific's fields of User, each read by the user's id alone: a
    /// user read with names only (`UserRecord.nameColumns`) answers them.
    static let userFieldsByID: Set<String> = [
        "karma", "badges", "projects", "snippets", "followerCount", "followingCount", "viewerFollows", "writerActivity",
    ]

    static func bind(_ binder: inout SchemaBinder) {
        binder.field("User", "karma") { (user: UserRecord, input) in
            input.request.prolific.writers.load(user.id) { .scalar(.int($0.karma)) }
        }
        binder.field("User", "badges") { (user: UserRecord, input) in
            input.request.prolific.writers.load(user.id) { writer in .list(Badge.all(of: writer).map { .object($0) }) }
        }
        binder.field("User", "projects") { (user: UserRecord, input) in
            let page = try PageRequest(input)
            return input.request.prolific.userProjectPages.load(OwnedPage(owner: user.id, page: page)) { .object($0) }
        }
        binder.field("User", "snippets") { (user: UserRecord, input) in
            let page = try PageRequest(input)
            return input.request.prolific.userSnippetPages.load(OwnedPage(owner: user.id, page: page)) { .object($0) }
        }
        binder.field("User", "followerCount") { (user: UserRecord, input) in
            input.request.prolific.writers.load(user.id) { .scalar(.int($0.followers)) }
        }
        binder.field("User", "followingCount") { (user: UserRecord, input) in
            input.request.prolific.writers.load(user.id) { .scalar(.int($0.following)) }
        }
        binder.field("User", "viewerFollows") { (user: UserRecord, input) in
            input.request.prolific.viewerFollowsWriters.load(user.id) { .scalar(.boolean($0)) }
        }
        binder.root("Query", "followedWritersProjects") { input in
            let viewer = try input.request.signedIn()
            return ProjectResolvers.list(
                try PageRequest(input),
                """
                FROM writer_follows f JOIN projects p ON p.owner_id = f.writer_id
                WHERE f.follower_id = $1 AND \(ProjectRecord.visible(toViewerAt: 1))
                """, [viewer], input.request.database)
        }
        binder.rootAsync("Mutation", "followUser") { input in try await follow(input, following: true) }
        binder.rootAsync("Mutation", "unfollowUser") { input in try await follow(input, following: false) }
        binder.field("Badge", "kind") { (badge: Badge) in .scalar(.enum(badge.kind.rawValue)) }
        binder.field("Badge", "level") { (badge: Badge) in .scalar(.int(badge.level)) }
        binder.field("Badge", "progress") { (badge: Badge) in .scalar(.int(badge.progress)) }
        binder.field("Badge", "nextLevelAt") { (badge: Badge) in badge.nextLevelAt.map { .scalar(.int($0)) } ?? .null }
    }

    private static func follow(_ input: ResolverInput, following: Bool) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let writer = try input.id("userId", of: "User")
        guard writer != viewer else { throw APIError.badInput("You cannot follow yourself.") }
        let rows = try await input.request.database.withTransaction { connection in
            if following {
                do {
                    _ = try await connection.query(
                        "INSERT INTO writer_follows (follower_id, writer_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", [viewer, writer])
                } catch let error as PostgresError where error.kind == .foreignKeyViolation {
                    throw APIError.notFound("No user has that id.")
                }
            } else {
                _ = try await connection.query("DELETE FROM writer_follows WHERE follower_id = $1 AND writer_id = $2", [viewer, writer])
            }
            return try await connection.query("SELECT \(UserRecord.columns) FROM users u WHERE u.id = $1", [writer])
        }
        guard let row = rows.first else { throw APIError.notFound("No user has that id.") }
        return .object(try UserRecord(row: row))
    }

    /// Tells the followers of a project's owner that they started it, in
    /// the project's transaction; a private project is nobody else's news.
    static func announce(project: Int64, owner: Int64, title: String, on connection: PostgresConnection) async throws {
        let rows = try await connection.query(
            """
            SELECT array(SELECT f.follower_id FROM writer_follows f WHERE f.writer_id = $1 ORDER BY f.follower_id), u.username
            FROM users u WHERE u.id = $1
            """, [owner])
        guard let row = rows.first else { return }
        let followers = try row.decode([Int64].self, at: 0)
        let username = try row.decode(String.self, at: 1)
        try await Notifications.record(
            .writerStartedProject, forEach: followers, actor: owner, subject: NodeReference("Project", project),
            message: "\(username) started a project: \"\(title)\".", on: connection)
    }
}
