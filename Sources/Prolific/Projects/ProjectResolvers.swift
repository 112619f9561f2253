import Foundation
import GraphQL
import HuddleCore
import HuddlePostgres

/// Projects: their fields and the lists that find them (newest, explore,
/// search, followed).
enum ProjectResolvers {
    static func bind(_ binder: inout SchemaBinder) {
        bindFields(&binder)
        binder.root("Query", "project") { input in
            guard let id = GlobalID.decode(input.string("id") ?? ""), id.type == "Project" else { return .null }
            // The page's open round, its ranked snippets and the story come in the project's statement when selected.
            let info = input.info
            let parts = ProjectParts(
                selecting: info.selectedFieldNames, onCurrentRound: info.selectedFieldNames(under: "currentRound"),
                ofAuthors: info.selectedFieldNames(along: ["story", "author"])
                    .union(info.selectedFieldNames(along: ["currentRound", "snippets", "author"])))
            let loader = input.request.prolific.projects(with: parts)
            let context = input.request
            return loader.load(id.id) { project in
                guard let project else { return .null }
                ActivityResolvers.viewed(project, context)
                return .object(project)
            }
        }
        binder.root("Query", "projects") { input in
            let page = try PageRequest(input)
            let viewer = input.request.viewer?.userID
            return list(page, "FROM projects p WHERE \(ProjectRecord.visible(toViewerAt: 1))", [viewer], input.request.database)
        }
        // Explore: by the decayed activity (the `heat` column, docs/prolific.md,
        // "explore"), which is fixed between events, so a cursor keeps its place.
        binder.root("Query", "exploreProjects") { input in
            let page = try PageRequest(input)
            let viewer = input.request.viewer?.userID
            let query = KeysetQuery(
                columns: ProjectRecord.columns, from: "FROM projects p WHERE \(ProjectRecord.visible(toViewerAt: 1))",
                parameters: [viewer], keys: [("p.heat", "float8"), ("p.id", "bigint")], descending: true)
            let database = input.request.database
            return .async { .object(try await query.page(page, on: database) { try ProjectRecord(row: $0) }) }
        }
        binder.root("Query", "searchProjects") { input in
            let page = try PageRequest(input)
            let title = (input.string("title") ?? "").trimmingCharacters(in: .whitespaces)
            guard (1...100).contains(title.count) else {
                throw APIError.badInput("\"title\" must be 1 to 100 characters, not counting surrounding spaces.")
            }
            let viewer = input.request.viewer?.userID
            return list(
                page, "FROM projects p WHERE lower(p.title) LIKE '%' || $2 || '%' ESCAPE '\\' AND \(ProjectRecord.visible(toViewerAt: 1))",
                [viewer, LikePattern.escaping(title.lowercased())], input.request.database)
        }
        binder.root("Query", "followedProjects") { input in
            let viewer = try input.request.signedIn()
            let page = try PageRequest(input)
            let query = KeysetQuery(
                columns: ProjectRecord.columns,
                from: """
                    FROM project_follows f JOIN projects p ON p.id = f.project_id
                    WHERE f.user_id = $1 AND \(ProjectRecord.visible(toViewerAt: 1))
                    """,
                parameters: [viewer], keys: [("f.created_at", "timestamptz"), ("p.id", "bigint")], descending: true)
            let database = input.request.database
            return .async { .object(try await query.page(page, on: database) { try ProjectRecord(row: $0) }) }
        }
        binder.bindConnection("ProjectConnection", edge: "ProjectEdge")
        ProjectMutations.bind(&binder)
    }

    /// Projects newest first under `from`.
    static func list(_ page: PageRequest, _ from: String, _ parameters: [any PostgresEncodable], _ database: PostgresPool)
        -> Resolved
    {
        let query = KeysetQuery(
            columns: ProjectRecord.columns, from: from, parameters: parameters,
            keys: [("p.created_at", "timestamptz"), ("p.id", "bigint")], descending: true)
        return .async { .object(try await query.page(page, on: database) { try ProjectRecord(row: $0) }) }
    }

    private static func bindFields(_ binder: inout SchemaBinder) {
        binder.field("Project", "id") { (project: ProjectRecord) in GlobalID.value("Project", project.id) }
        binder.field("Project", "title") { (project: ProjectRecord) in .scalar(.string(project.title)) }
        binder.field("Project", "cover") { (project: ProjectRecord, input: ResolverInput) in
            ProlificPictures.resolve(project.cover, input)
        }
        binder.field("Project", "seed") { (project: ProjectRecord) in .scalar(.string(project.seed)) }
        binder.field("Project", "isPrivate") { (project: ProjectRecord) in .scalar(.boolean(project.isPrivate)) }
        binder.field("Project", "pace") { (project: ProjectRecord) in .scalar(.enum(project.pace)) }
        binder.field("Project", "roundMinutes") { (project: ProjectRecord) in .scalar(.int(project.roundMinutes)) }
        binder.field("Project", "roundLimit") { (project: ProjectRecord) in project.roundLimit.map { .scalar(.int($0)) } ?? .null }
        binder.field("Project", "isComplete") { (project: ProjectRecord) in .scalar(.boolean(project.completedAt != nil)) }
        binder.field("Project", "completedAt") { (project: ProjectRecord) in project.completedAt.map(Instant.value) ?? .null }
        binder.field("Project", "roundsCompleted") { (project: ProjectRecord) in .scalar(.int(project.roundsCompleted)) }
        binder.field("Project", "followerCount") { (project: ProjectRecord) in .scalar(.int(project.followerCount)) }
        binder.field("Project", "createdAt") { (project: ProjectRecord) in Instant.value(project.createdAt) }
        binder.field("Project", "lastActivityAt") { (project: ProjectRecord) in Instant.value(project.lastActivityAt) }
        binder.field("Project", "owner") { (project: ProjectRecord, input) in
            guard let owner = project.ownerID else { return .object(UserRecord.deleted) }
            return input.request.loaders.users(for: input.info).load(owner) { $0.map { .object($0) } ?? .null }
        }
        binder.field("Project", "currentRound") { (project: ProjectRecord, input) in
            guard project.completedAt == nil else { return .null }
            return input.request.prolific.currentRounds.load(project.id) { $0.map { .object($0) } ?? .null }
        }
        binder.field("Project", "story") { (project: ProjectRecord, input) in
            let slice = try ListSlice(input, maxCount: ListSlice.maxCount)
            return input.request.prolific.stories.load(project.id) { .list(slice.of($0).map { .object($0) }) }
        }
        binder.field("Project", "rounds") { (project: ProjectRecord, input) in
            let page = try PageRequest(input)
            return input.request.prolific.roundPages.load(OwnedPage(owner: project.id, page: page)) { .object($0) }
        }
        binder.field("Project", "viewerFollows") { (project: ProjectRecord, input) in
            input.request.prolific.viewerFollows.load(project.id) { .scalar(.boolean($0)) }
        }
        binder.field("Project", "viewerCanWrite") { (project: ProjectRecord, input) in
            guard input.request.viewer != nil, project.completedAt == nil else { return .scalar(.boolean(false)) }
            guard project.isPrivate else { return .scalar(.boolean(true)) }
            return input.request.prolific.viewerMemberships.load(project.id) { .scalar(.boolean($0)) }
        }
        binder.field("Project", "members") { (project: ProjectRecord, input) in
            guard project.isPrivate else { return .list([]) }
            return input.request.prolific.members.load(project.id) { .list($0.map { .object($0) }) }
        }
    }
}
