import GraphQL
import HuddleCore
import HuddlePostgres

/// The database's refusals (its first migration's SQLSTATEs PR001-PR005), as
/// answers a client can act on. The resolvers check first and say more;
/// these are for a write that raced a change (a round ending under a vote).
enum ProlificErrors {
    static let roundEndedForSnippets = "This round has ended; write in the project's current round."
    static let roundEndedForVotes = "This round has ended; its votes are counted."

    /// `error` as an API error when it is one of Prolific's rules (a round
    /// that has ended reported as `roundEnded`); else itself.
    static func translate(_ error: any Error, roundEnded: String) -> any Error {
        guard let database = error as? PostgresError else { return error }
        switch database.sqlState {
        case "PR001": return APIError.badInput(roundEnded)
        case "PR002": return APIError.badInput("You cannot vote for your own snippet.")
        case "PR003": return APIError.forbidden("Only members of this private project can do this.")
        case "PR004": return APIError.badInput("A snippet cannot change once posted.")
        case "PR005": return APIError.badInput("A finished round cannot change.")
        default: return error
        }
    }

    /// Runs `body`, translating the database's refusals.
    static func translating<T>(roundEnded: String = roundEndedForSnippets, _ body: () async throws -> T) async throws -> T {
        try await APIError.translating({ translate($0, roundEnded: roundEnded) }, body)
    }
}
