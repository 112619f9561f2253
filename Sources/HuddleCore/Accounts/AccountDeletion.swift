import GraphQL
import HuddlePostgres
import HuddleRuntime

/// `deleteAccount`: the person goes, what others depend on stays without
/// them. In one transaction each mounted app readies the account (telling
/// the people who depend on it, or refusing), then the `users` row is
/// deleted and the foreign keys do the rest: personal rows go with it
/// (ON DELETE CASCADE), what others own keeps its place with no author
/// (ON DELETE SET NULL, shown as the shared "deleted user"). A foreign
/// key with neither stops the deletion, so a new table must choose.
enum AccountDeletion {
    static func bind(_ binder: inout SchemaBinder, apps: [any App.Type]) {
        binder.rootAsync("Mutation", "deleteAccount") { input in
            let context = input.request
            let userID = try context.signedIn()
            let password = input.string("password") ?? ""
            _ = try await SignInThrottle.recheck(password, of: userID, context: context, wrong: "The password is not right.")
            let revoked: [String]
            do {
                revoked = try await delete(userID, apps: apps, on: context.database)
            } catch let error as PostgresError where error.sqlState == "PM005" {
                // Two last staff members leaving at once: the database kept one.
                throw APIError.badInput("A shelter keeps at least one staff member, and another one has just left; try again.")
            }
            for tokenHash in revoked { context.tokens?.forget(tokenHash) }
            return .scalar(.boolean(true))
        }
    }

    /// The deleting transaction; the hashes of the tokens it revoked.
    private static func delete(_ userID: Int64, apps: [any App.Type], on database: PostgresPool) async throws -> [String] {
        try await database.withTransaction { connection in
            for app in apps { try await app.lockAheadOfDeletion(of: userID, on: connection) }
            // Held to the end: nothing of the account's is made meanwhile.
            _ = try await connection.query("SELECT 1 FROM users WHERE id = $1 FOR UPDATE", [userID])
            for app in apps { try await app.prepareDeletion(of: userID, on: connection) }
            let tokens = try await connection.query("SELECT token_hash FROM auth_tokens WHERE user_id = $1", [userID]).map {
                try $0.decode(String.self, at: 0)
            }
            _ = try await connection.query("DELETE FROM users WHERE id = $1", [userID])
            return tokens
        }
    }
}
