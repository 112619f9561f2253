import Foundation
import GraphQL
import HuddleRuntime

/// The Huddle API: the schema in `Schema/` with every field bound to its
/// resolver, and the per-request context the transports build.
public enum HuddleAPI {
    /// Builds the executable schema; throws listing every SDL problem or
    /// every field left without a resolver. Errors the resolvers did not
    /// mean for clients (the database's own text) go to `logger`; clients
    /// read a generic message with a code.
    public static func executableSchema(_ directory: SchemaDirectory, logger: Logger = Logger()) throws -> ExecutableSchema {
        let schema = try buildSchema(directory.sources())
        var binder = SchemaBinder(schema: schema)
        binder.builder.unexpectedError = { error in APIError.masked(error, logger: logger) }
        binder.bindPageInfo()
        NodeResolvers.bind(&binder)
        AccountResolvers.bind(&binder)
        FriendResolvers.bind(&binder)
        LocationResolvers.bind(&binder)
        SessionResolvers.bind(&binder)
        InvitationResolvers.bind(&binder)
        QuizResolvers.bind(&binder)
        StatisticsResolvers.bind(&binder)
        SuggestedSessions.bind(&binder)
        NotificationResolvers.bind(&binder)
        SubscriptionResolvers.bind(&binder)
        return try binder.builder.build()
    }

    /// The context of an HTTP request: the worker's pool and the user of
    /// its bearer token.
    public static func context(
        for request: HTTPRequest, database: PostgresPool, listener: PostgresListener?
    ) async throws(ServiceUnavailable) -> any Sendable {
        let token = Authentication.bearerToken(request.head.header("authorization"))
        return RequestContext(database: database, listener: listener, viewer: try await Authentication.viewer(token: token, database: database))
    }

    /// The context of a websocket connection, from the `token` (or
    /// `Authorization: Bearer …`) in its connection_init payload; anonymous
    /// without one, refused (nil) with one that is not valid.
    public static func context(
        forConnectionInit payload: [GraphQLValue.Member], database: PostgresPool, listener: PostgresListener?
    ) async throws(ServiceUnavailable) -> (any Sendable)? {
        let member = payload.first { $0.name == "token" }?.value.stringValue
            ?? Authentication.bearerToken(payload.first { $0.name.lowercased() == "authorization" }?.value.stringValue)
        guard let token = member else { return RequestContext(database: database, listener: listener, viewer: nil) }
        guard let viewer = try await Authentication.viewer(token: token, database: database) else { return nil }
        return RequestContext(database: database, listener: listener, viewer: viewer)
    }
}
