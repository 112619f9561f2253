import Foundation
import GraphQL
import GraphQLTransport
import HuddlePostgres
import HuddleRuntime
import Synchronization

/// What the resolvers of one operation share: the database of the worker
/// answering, who is asking, and the operation's batching loaders (so each
/// operation sees fresh data and one statement per level).
package final class RequestContext: Sendable {
    /// Where this operation's statements go: the primary's pool, or a
    /// standby's for a query (`routed(for:readAfter:)`).
    package let database: PostgresPool
    /// The primary's pool, whatever this operation reads: what a
    /// process-wide cache loads from, so that a copy kept past this
    /// operation is never older than a change it has been told of.
    package let primaryDatabase: PostgresPool
    /// The process's LISTEN connection, which subscriptions follow.
    package let listener: PostgresListener?
    /// The signed-in user's id and token hash, when a valid token came along.
    package var viewer: Viewer? {
        readsWhoAsks()
        return asker.viewer
    }
    /// The mounted apps' settings as the operator set them.
    package let settings: AppSettings
    /// The process's cache of tokens' users, which logging out updates.
    package let tokens: TokenCache?
    /// The request's User-Agent as sent, which a sign-in records with its
    /// token (trimmed then, not on every request).
    package var userAgent: String? {
        readsWhoAsks()
        return asker.userAgent
    }
    /// The client's IP address: the connection's, or the one a trusted
    /// proxy forwarded (`ClientAddress`); nil when unknown.
    package var clientAddress: String? {
        readsWhoAsks()
        return asker.clientAddress
    }
    /// Who is asking: read through `viewer`, `userAgent` and
    /// `clientAddress`, which note that the operation depends on it.
    private let asker: Asker
    private let hasReadAsker = Atomic<Bool>(false)
    /// What device registrations may be (the platforms pushed to, the VAPID key).
    package let push: PushRegistration
    /// How picture paths are written (private ones signed).
    package let pictures: PictureURLs
    /// Where reads an app counts (a project's page opened) are held until
    /// written; nil counts nothing.
    package let tallies: Tallies?
    /// Where the worker's queries may read instead (issue 40); nil for the primary only.
    package let readRouting: ReadRouting?
    /// For a query routed to a standby: the context it came from, which
    /// reads from the primary, to run it again with if the standby fails it.
    private let primaryFallback: RequestContext?
    /// Users other than the viewer this operation wrote for (one it signed
    /// up or in): their reads must see its writes too.
    private let wroteFor = Mutex<[Int64]>([])
    private let loaderStorage = Mutex<Loaders?>(nil)
    private let appLoaderStorage = Mutex<[ObjectIdentifier: any RequestLoaders]>([:])

    /// The operation's loaders, made on first use (many operations, such as
    /// introspection or `{ __typename }`, need none).
    package var loaders: Loaders {
        loaderStorage.withLock { storage in
            if let loaders = storage { return loaders }
            let loaders = Loaders(database: database, viewer: loaderViewer)
            storage = loaders
            return loaders
        }
    }

    /// Who is asking, for the loaders: a loader that reads it notes the
    /// read when it is made. Weak: the loaders are kept by this context.
    private var loaderViewer: LoaderViewer {
        LoaderViewer { [weak self] in self?.viewer?.userID }
    }

    /// The operation's loaders of one app, made on first use.
    package func loaders<AppLoaders: RequestLoaders>(_ type: AppLoaders.Type) -> AppLoaders {
        let shared = loaders
        return appLoaderStorage.withLock { storage in
            // Kept under the type they were made as, so the object found is
            // of it and needs no dynamic cast at every resolver's call.
            let key = ObjectIdentifier(AppLoaders.self)
            if let loaders = storage[key] { return unsafeDowncast(loaders, to: AppLoaders.self) }
            let loaders = AppLoaders(database: database, viewer: loaderViewer, shared: shared)
            storage[key] = loaders
            return loaders
        }
    }

    package struct Viewer: Sendable {
        package var userID: Int64
        package var tokenHash: String
    }

    /// Everything about who is asking that a resolver may read.
    private struct Asker: Hashable, Sendable {
        var viewer: Viewer?
        var userAgent: String?
        var clientAddress: String?

        static func == (a: Asker, b: Asker) -> Bool {
            a.viewer?.userID == b.viewer?.userID && a.viewer?.tokenHash == b.viewer?.tokenHash && a.userAgent == b.userAgent
                && a.clientAddress == b.clientAddress
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(viewer?.userID)
            hasher.combine(viewer?.tokenHash)
            hasher.combine(userAgent)
            hasher.combine(clientAddress)
        }
    }

    private func readsWhoAsks() {
        hasReadAsker.store(true, ordering: .relaxed)
    }

    package init(
        database: PostgresPool, listener: PostgresListener?, viewer: Viewer?, tokens: TokenCache? = nil,
        settings: AppSettings = AppSettings(), userAgent: String? = nil, clientAddress: String? = nil,
        push: PushRegistration = PushRegistration(), pictures: PictureURLs = PictureURLs(), tallies: Tallies? = nil,
        readRouting: ReadRouting? = nil, primaryDatabase: PostgresPool? = nil, primaryFallback: RequestContext? = nil
    ) {
        self.tallies = tallies
        self.readRouting = readRouting
        self.primaryFallback = primaryFallback
        self.primaryDatabase = primaryDatabase ?? database
        self.push = push
        self.pictures = pictures
        asker = Asker(viewer: viewer, userAgent: userAgent, clientAddress: clientAddress)
        self.database = database
        self.listener = listener
        self.tokens = tokens
        self.settings = settings
    }

    /// Notes that this operation wrote for `user` (whose token it issued).
    package func noteWrites(forUser user: Int64) {
        wroteFor.withLock { $0.append(user) }
    }

    /// The signed-in user's id, or UNAUTHENTICATED.
    package func signedIn() throws -> Int64 {
        guard let viewer else { throw APIError.unauthenticated() }
        return viewer.userID
    }

    /// A context for another operation by the same client (each operation
    /// over one websocket gets fresh loaders).
    package func forNextOperation() -> RequestContext {
        reading(from: database, readRouting: readRouting)
    }

    /// A context for an operation by the same client whose statements go to `pool`.
    private func reading(from pool: PostgresPool, readRouting: ReadRouting?, fallback: RequestContext? = nil) -> RequestContext {
        RequestContext(
            database: pool, listener: listener, viewer: asker.viewer, tokens: tokens, settings: settings,
            userAgent: asker.userAgent, clientAddress: asker.clientAddress, push: push, pictures: pictures, tallies: tallies,
            readRouting: readRouting, primaryDatabase: primaryDatabase, primaryFallback: fallback)
    }

    /// Counts a read of `key` in `tally` by whoever asks: the signed-in
    /// user, else the client's address.
    package func count(_ tally: Tally, key: Int64) {
        guard let tallies else { return }
        let reader: TallyReader =
            if let viewer {
                .user(viewer.userID)
            } else if let clientAddress {
                // By network for IPv6, as the other limits by address: one client has a whole /64.
                .address(ClientAddress.limitKey(clientAddress))
            } else {
                .unknown
            }
        tallies.count(tally, key: key, by: reader)
    }
}

extension RequestContext: OperationContextMaking {
    public func makeOperationContext() -> any Sendable { forNextOperation() }
}

/// Where a worker's queries read when it has standbys (issue 40): their
/// pools, and what each user's reads must see.
package struct ReadRouting: Sendable {
    package let replicas: ReplicaReads
    package let positions: WritePositions

    package init(replicas: ReplicaReads, positions: WritePositions) {
        self.replicas = replicas
        self.positions = positions
    }
}

extension RequestContext: OperationRouting {
    /// A query reads from a standby that has replayed what its reader must
    /// see (their last write, or what the client says), all of its
    /// statements from the same one; anything else, and a query no standby
    /// can serve, from the primary.
    public func routed(for type: OperationType, readAfter: String?) async -> any Sendable {
        guard type == .query, let readRouting else { return self }
        let own = readRouting.positions.required(forUser: asker.viewer?.userID)
        var required = own
        if let readAfter, let echoed = WALPosition(readAfter) { required = max(required, echoed) }
        // Waiting for a standby is for a position this server knows to be
        // real: not one a client made up, nor none at all.
        let known = max(own, readRouting.replicas.monitor.primaryPosition ?? WALPosition(0))
        let mayWait = required != .unknown && required <= known
        guard let pool = await readRouting.replicas.pool(after: required, mayWait: mayWait) else { return self }
        return reading(from: pool, readRouting: nil, fallback: self)
    }

    public func fallback(after result: ExecutionResult) -> (any Sendable)? {
        // A standby gone, or one cancelling a statement in conflict with its
        // replay (a serialization failure, told as SERVICE_UNAVAILABLE): not
        // a resolver's own error, nor a limit, nor a client gone.
        guard let primaryFallback, !Task.isCancelled else { return nil }
        let failed = result.errors.contains { $0.code == "SERVICE_UNAVAILABLE" }
        return failed ? primaryFallback.forNextOperation() : nil
    }

    /// Measures what a mutation's writer (and anyone it signed up or in)
    /// must read from now on: here, and (told by NOTIFY) in the other
    /// processes. When that cannot be known (the statement failed, or the
    /// operation was cut short while its resolvers may still write), their
    /// reads go to the primary for a while instead.
    public func mutationEnded(cutShort: Bool) async -> String? {
        guard let readRouting else { return nil }
        let users = (asker.viewer.map { [$0.userID] } ?? []) + wroteFor.withLock { $0 }
        do {
            return try await readRouting.positions.measure(for: users, unsure: cutShort, on: primaryDatabase).description
        } catch {
            readRouting.positions.markUnsure(users)
            return nil
        }
    }
}

/// A WebSocket signed in with a token ends when the token does: revoked
/// anywhere (logging out, an operator's SQL), or found invalid when asked
/// again before an operation or after a missed revocation.
extension RequestContext: ConnectionAuthority {
    public func watchEnd(_ ended: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        guard let viewer = asker.viewer, let tokens else { return {} }
        let watch = tokens.watch(viewer.tokenHash) { [self] notice in
            switch notice {
            case .revoked: ended()
            case .unsure:
                Task {
                    if (try? await isStillValid()) == false { ended() }
                }
            }
        }
        return { watch.cancel() }
    }

    public func isStillValid() async throws(ServiceUnavailable) -> Bool {
        guard let viewer = asker.viewer else { return true }
        return try await Authentication.viewer(tokenHash: viewer.tokenHash, database: database, cache: tokens, settings: settings)?.userID
            == viewer.userID
    }
}

extension RequestContext: LoggedViewer {
    public var loggedUserID: String? { asker.viewer.map { String($0.userID) } }
}

/// Subscribers of one event share its run unless the run read who asks
/// (`SharedEventExecutions`).
extension RequestContext: ViewerScopedContext {
    public var viewerKey: SharingKey { SharingKey(asker) }
    public var hasReadViewer: Bool { hasReadAsker.load(ordering: .relaxed) }
}
