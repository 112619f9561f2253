import GraphQL
import HuddlePostgres
import HuddleRuntime

/// The errors the API reports, each with the `extensions.code` clients
/// switch on.
package enum APIError {
    package static func unauthenticated(_ message: String = "You must be signed in to do this.") -> GraphQLError {
        .coded(message, code: "UNAUTHENTICATED")
    }

    package static func forbidden(_ message: String) -> GraphQLError {
        .coded(message, code: "FORBIDDEN")
    }

    package static func badInput(_ message: String) -> GraphQLError {
        .coded(message, code: "BAD_USER_INPUT")
    }

    /// Too many attempts of something throttled; try again later.
    package static func rateLimited(_ message: String) -> GraphQLError {
        .coded(message, code: "RATE_LIMITED")
    }

    package static func notFound(_ message: String) -> GraphQLError {
        .coded(message, code: "NOT_FOUND")
    }

    /// Runs `body`, throwing what it throws as `translate` makes it: an
    /// app's reading of the database's refusals (its triggers' SQLSTATEs)
    /// as answers a client can act on.
    package static func translating<T>(_ translate: (any Error) -> any Error, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw translate(error)
        }
    }

    /// Text holding U+0000 is refused wherever it would reach the
    /// database (PostgreSQL's text cannot hold it); never stored cut short.
    package static let nulCharacterMessage =
        "Text in this request contains the NUL character (U+0000), which cannot be stored; remove it and try again."

    /// A fault of the server's own, not of the request.
    package static func internalError(_ message: String) -> GraphQLError {
        .coded(message, code: "INTERNAL_SERVER_ERROR")
    }

    /// What a client reads of an error no resolver turned into a GraphQL
    /// error: the database being away (SERVICE_UNAVAILABLE, worth a retry)
    /// or a fault of the server's (INTERNAL_SERVER_ERROR); the detail,
    /// which may name hosts, tables or PostgreSQL's own text, is logged.
    package static func masked(_ error: any Error, logger: Logger) -> GraphQLError {
        if let database = error as? PostgresError {
            switch database.kind {
            // A serialization failure left after the retries (or a standby's
            // conflict with its replay) is passing: trying again is the remedy.
            case .connection, .poolTimeout, .poolClosed, .cancelled, .serializationFailure:
                logger.log(.warning, "database unavailable", ["error": .string(database.description)])
                return .coded("The database is unavailable; try again shortly.", code: "SERVICE_UNAVAILABLE")
            case .nulCharacter:
                return badInput(nulCharacterMessage)
            default:
                logger.log(.error, "database error", ["error": .string(database.description)])
                return internalError("The database could not complete this request.")
            }
        }
        logger.log(.error, "resolver error", ["error": .string(String(describing: error))])
        return internalError("Internal server error.")
    }
}
