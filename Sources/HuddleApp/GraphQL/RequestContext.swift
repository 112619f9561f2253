import Foundation
import GraphQL
import HuddleRuntime

/// What the resolvers of one operation share: the database of the worker
/// answering, who is asking, and the operation's batching loaders (so each
/// operation sees fresh data and one statement per level).
final class RequestContext: Sendable {
    let database: PostgresPool
    /// The process's LISTEN connection, which subscriptions follow.
    let listener: PostgresListener?
    /// The signed-in user's id and token hash, when a valid token came along.
    let viewer: Viewer?
    let loaders: Loaders

    struct Viewer: Sendable {
        var userID: Int64
        var tokenHash: String
    }

    init(database: PostgresPool, listener: PostgresListener?, viewer: Viewer?) {
        self.database = database
        self.listener = listener
        self.viewer = viewer
        loaders = Loaders(database: database, viewerID: viewer?.userID)
    }

    /// The signed-in user's id, or UNAUTHENTICATED.
    func signedIn() throws -> Int64 {
        guard let viewer else { throw APIError.unauthenticated() }
        return viewer.userID
    }

    /// A context for another operation by the same client (each operation
    /// over one websocket gets fresh loaders).
    func forNextOperation() -> RequestContext {
        RequestContext(database: database, listener: listener, viewer: viewer)
    }
}

extension RequestContext: OperationContextMaking {
    public func makeOperationContext() -> any Sendable { forNextOperation() }
}
