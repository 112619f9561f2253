import Foundation
import GraphQL
import GraphQLTransport
import HuddlePostgres
import HuddleRuntime

/// The Huddle API: the schema in `Schema/` with every field bound to its
/// resolver, and the per-request context the transports build.
public enum HuddleAPI {
    /// Builds the executable schema of the shared core and `apps`; throws
    /// listing every SDL problem or every field left without a resolver.
    /// Errors the resolvers did not mean for clients (the database's own
    /// text) go to `logger`; clients read a generic message with a code.
    /// With `incrementalDelivery`, the schema has `@defer` and `@stream`.
    package static func executableSchema(
        _ directory: SchemaDirectory, apps: [any App.Type], incrementalDelivery: Bool = true, logger: Logger = Logger()
    ) throws -> ExecutableSchema {
        let mounted: [any App.Type] = [Shared.self] + apps
        let schema = try buildSchema(directory.sources(mounting: apps) + (incrementalDelivery ? [incrementalDeliveryDirectives] : []))
        try checkNotificationKinds(schema, Notifications.kinds(mounting: apps).map(\.kind))
        var binder = SchemaBinder(schema: schema)
        binder.builder.unexpectedError = { error in APIError.masked(error, logger: logger) }
        binder.builder.scalar("DateTime", DateTimeScalar.coercion)
        binder.builder.scalar("Date", DateScalar.coercion)
        binder.builder.scalar("Upload", PictureResolvers.uploadCoercion)
        for app in mounted { app.bind(&binder) }
        NodeResolvers.bind(&binder, nodeTypes: mounted.flatMap { $0.nodeTypes })
        AccountDeletion.bind(&binder, apps: apps + [Shared.self])
        PushResolvers.bind(&binder, apps: apps)
        return try binder.builder.build()
    }

    /// The schema's `NotificationKind` must list exactly the kinds the apps record.
    package static func checkNotificationKinds(_ schema: GraphQLSchema, _ kinds: [NotificationKind]) throws {
        guard let type = schema.type(named: "NotificationKind"), type.kind == .enum else {
            throw SchemaMismatch(description: "the schema has no enum NotificationKind")
        }
        let inSchema = Set(type.enumValues.map(\.name)), declared = Set(kinds.map(\.rawValue))
        guard inSchema == declared else {
            throw SchemaMismatch(
                description: """
                    enum NotificationKind does not match the kinds the apps record: \
                    missing from the schema \(declared.subtracting(inSchema).sorted()), \
                    recorded by no app \(inSchema.subtracting(declared).sorted())
                    """)
        }
    }

    public struct SchemaMismatch: Error, CustomStringConvertible {
        public var description: String
    }

    /// The context of an HTTP request: the worker's pool and the user of
    /// its bearer token.
    package static func context(
        for request: HTTPRequest, database: PostgresPool, listener: PostgresListener?, tokens: TokenCache? = nil,
        settings: AppSettings, trustedProxies: ClientAddress.TrustedProxies = .none, push: PushRegistration = PushRegistration(),
        pictures: PictureURLs = PictureURLs(), tallies: Tallies? = nil, readRouting: ReadRouting? = nil
    ) async throws(ServiceUnavailable) -> any Sendable {
        let token = Authentication.bearerToken(request.head.header("authorization"))
        return RequestContext(
            database: database, listener: listener,
            viewer: try await Authentication.viewer(token: token, database: database, cache: tokens, settings: settings), tokens: tokens,
            settings: settings, userAgent: request.head.header("user-agent"),
            clientAddress: ClientAddress.of(request, trusting: trustedProxies), push: push, pictures: pictures, tallies: tallies,
            readRouting: readRouting)
    }

    /// The context of a websocket connection, from the `token` (or
    /// `Authorization: Bearer …`) in its connection_init payload; anonymous
    /// without one, refused (nil) with one that is not valid. The client's
    /// address and User-Agent are the upgrade request's, when there is one.
    package static func context(
        forConnectionInit payload: [GraphQLValue.Member], upgrade: HTTPRequest? = nil, database: PostgresPool,
        listener: PostgresListener?, tokens: TokenCache? = nil, settings: AppSettings,
        trustedProxies: ClientAddress.TrustedProxies = .none, push: PushRegistration = PushRegistration(),
        pictures: PictureURLs = PictureURLs(), tallies: Tallies? = nil, readRouting: ReadRouting? = nil
    ) async throws(ServiceUnavailable) -> (any Sendable)? {
        let member =
            payload.first { $0.name == "token" }?.value.stringValue
            ?? Authentication.bearerToken(payload.first { $0.name.lowercased() == "authorization" }?.value.stringValue)
        var viewer: RequestContext.Viewer?
        if let token = member {
            guard let known = try await Authentication.viewer(token: token, database: database, cache: tokens, settings: settings) else {
                return nil
            }
            viewer = known
        }
        return RequestContext(
            database: database, listener: listener, viewer: viewer, tokens: tokens, settings: settings,
            userAgent: upgrade?.head.header("user-agent"),
            clientAddress: upgrade.flatMap { ClientAddress.of($0, trusting: trustedProxies) },
            push: push, pictures: pictures, tallies: tallies, readRouting: readRouting)
    }
}
