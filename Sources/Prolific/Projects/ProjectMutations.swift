import Foundation
import GraphQL
import HuddleCore
import HuddlePostgres

/// Starting, following and inviting to projects.
enum ProjectMutations {
    static func bind(_ binder: inout SchemaBinder) {
        binder.rootAsync("Mutation", "createProject", create)
        binder.rootAsync("Mutation", "followProject") { input in try await follow(input, following: true) }
        binder.rootAsync("Mutation", "unfollowProject") { input in try await follow(input, following: false) }
        binder.rootAsync("Mutation", "inviteToProject", invite)
        binder.rootAsync("Mutation", "setProjectCover", setCover)
    }

    /// Round lengths of the named paces, in minutes.
    static let paceMinutes = ["NORMAL": 1440, "SPEED": 10]

    /// A new project as its input asks, checked.
    struct NewProject {
        var title: String
        var seed: String
        var pace: String
        var roundMinutes: Int
        var roundLimit: Int?
        var isPrivate: Bool

        init(_ fields: GraphQLValue) throws {
            title = (fields["title"]?.stringValue ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            guard (1...120).contains(title.count) else {
                throw APIError.badInput("\"title\" must be 1 to 120 characters, not counting surrounding spaces.")
            }
            seed = fields["seed"]?.stringValue ?? ""
            guard (1...1000).contains(seed.count), !seed.allSatisfy(\.isWhitespace) else {
                throw APIError.badInput("\"seed\" must be 1 to 1,000 characters and not only spaces.")
            }
            pace = fields["pace"]?.enumValue ?? "NORMAL"
            let minutes = fields["roundMinutes"]?.intValue
            if let named = paceMinutes[pace] {
                guard minutes == nil else { throw APIError.badInput("\"roundMinutes\" goes with pace CUSTOM only.") }
                roundMinutes = named
            } else {
                guard let minutes, (1...10080).contains(minutes) else {
                    throw APIError.badInput("Pace CUSTOM needs \"roundMinutes\" between 1 and 10080.")
                }
                roundMinutes = minutes
            }
            roundLimit = fields["roundLimit"]?.intValue
            if let roundLimit, !(1...1000).contains(roundLimit) {
                throw APIError.badInput("\"roundLimit\" must be between 1 and 1000, or null.")
            }
            isPrivate = fields["isPrivate"]?.boolValue ?? false
        }
    }

    private static func create(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let project = try NewProject(input.argument("input") ?? .null)
        return try await input.request.database.withTransaction { connection in
            let id = try await insert(project, owner: viewer, on: connection)
            if !project.isPrivate { try await WriterResolvers.announce(project: id, owner: viewer, title: project.title, on: connection) }
            return .object(try await load(id, on: connection))
        }
    }

    /// Inserts a project with its first round open (and scheduled to end),
    /// in the caller's transaction; returns its id.
    static func insert(_ project: NewProject, owner: Int64, on connection: PostgresConnection) async throws -> Int64 {
        let rows = try await connection.query(
            """
            INSERT INTO projects (owner_id, title, seed, pace, round_minutes, round_limit, is_private)
            VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id
            """, [owner, project.title, project.seed, project.pace, project.roundMinutes, project.roundLimit, project.isPrivate])
        let id = try rows[0].decode(Int64.self, at: 0)
        try await RoundEnd.open(round: 1, of: id, minutes: project.roundMinutes, on: connection)
        return id
    }

    private static func setCover(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let id = try input.id("projectId", of: "Project")
        let upload = input.string("file")
        return try await ProlificErrors.translating {
            try await input.request.database.withTransaction { connection in
                let project = try await visible(id, to: viewer, on: connection)
                guard project.ownerID == viewer else { throw APIError.forbidden("Only the project's owner can change its cover.") }
                let cover = try await upload.asyncMap { upload in
                    try await ProlificPictures.claim(upload, by: viewer, inProject: id, on: connection)
                }
                // The cover replaced goes (projects_remove_cover).
                _ = try await connection.query("UPDATE projects SET cover_id = $2 WHERE id = $1", [id, cover])
                return .object(try await load(id, on: connection))
            }
        }
    }

    static func load(_ id: Int64, on database: some PostgresQuerying) async throws -> ProjectRecord {
        let rows = try await database.query("SELECT \(ProjectRecord.columns) FROM projects p WHERE p.id = $1", [id])
        guard let row = rows.first else { throw APIError.notFound("No project has that id.") }
        return try ProjectRecord(row: row)
    }

    /// The project `id` if `viewer` may see it, locked against a concurrent change.
    static func visible(_ id: Int64, to viewer: Int64, on connection: PostgresConnection) async throws -> ProjectRecord {
        let rows = try await connection.query(
            "SELECT \(ProjectRecord.columns) FROM projects p WHERE p.id = $1 AND \(ProjectRecord.visible(toViewerAt: 2)) FOR SHARE OF p",
            [id, viewer])
        guard let row = rows.first else { throw APIError.notFound("No project has that id.") }
        return try ProjectRecord(row: row)
    }

    private static func follow(_ input: ResolverInput, following: Bool) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let id = try input.id("projectId", of: "Project")
        return try await ProlificErrors.translating {
            try await input.request.database.withTransaction { connection in
                _ = try await visible(id, to: viewer, on: connection)
                if following {
                    _ = try await connection.query(
                        "INSERT INTO project_follows (project_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", [id, viewer])
                } else {
                    _ = try await connection.query("DELETE FROM project_follows WHERE project_id = $1 AND user_id = $2", [id, viewer])
                }
                return .object(try await load(id, on: connection))
            }
        }
    }

    private static func invite(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let id = try input.id("projectId", of: "Project")
        let invitee = try input.id("userId", of: "User")
        return try await input.request.database.withTransaction { connection in
            let project = try await visible(id, to: viewer, on: connection)
            guard project.ownerID == viewer else { throw APIError.forbidden("Only the project's owner can invite to it.") }
            guard project.isPrivate else {
                throw APIError.badInput("Everyone can write in a public project; only private ones take invitations.")
            }
            do {
                let rows = try await connection.query(
                    "INSERT INTO project_members (project_id, user_id, invited_by) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING user_id",
                    [id, invitee, viewer])
                guard !rows.isEmpty else { throw APIError.badInput("That user is a member of this project already.") }
            } catch let error as PostgresError where error.kind == .foreignKeyViolation {
                throw APIError.notFound("No user has that id.")
            }
            try await Notifications.record(
                .projectInvitation, for: invitee, actor: viewer, subject: NodeReference("Project", id),
                message: "You were invited to write \"\(project.title)\".", on: connection)
            return .object(try await load(id, on: connection))
        }
    }
}
