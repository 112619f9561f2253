import GraphQL
import HuddleCore

/// A user's Prolific side: karma, badges, projects and snippets.
enum WriterResolvers {
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
        binder.field("Badge", "kind") { (badge: Badge) in .scalar(.enum(badge.kind.rawValue)) }
        binder.field("Badge", "level") { (badge: Badge) in .scalar(.int(badge.level)) }
        binder.field("Badge", "progress") { (badge: Badge) in .scalar(.int(badge.progress)) }
        binder.field("Badge", "nextLevelAt") { (badge: Badge) in badge.nextLevelAt.map { .scalar(.int($0)) } ?? .null }
    }
}
