import Foundation
import HuddlePostgres
import HuddleRuntime

/// Failed sign-ins, counted by the name tried and by the client's address
/// (the name whether or not an account
/// has it, so that being throttled says nothing of which names exist). An
/// attempt counts before its password is checked, so a burst of attempts
/// at once is counted as it arrives, not after the slow hash; once a name
/// has `Shared.signInFreeFailures`, the next blocks it for
/// `Shared.signInFirstWait` and each further one for twice as long as the
/// last, up to `Shared.signInLongestWait`. A success
/// clears the name's count; a count unused for the longest wait starts
/// again (and its row is removed by a later failure of any name). The row's
/// own values, not a snapshot, decide each update, so attempts at once
/// each count.
package enum SignInThrottle {
    /// What a name's failures are counted by, lower-cased: the database
    /// keeps only its keyed hash (`sign_in_throttle_hash`, whose key never
    /// leaves it), never the name.
    static func key(_ name: String) -> String { "sign-in:" + name.lowercased() }

    /// Counts an attempt with `name`, and one from the client's `address`,
    /// as failures until it succeeds; throws RATE_LIMITED while either is
    /// blocked (the attempt not counted). An address has more free failures
    /// (`Shared.signInAddressFreeFailures`: many people may share one) and
    /// a success does not clear them, so one's own account cannot be used
    /// to wipe an address's count.
    static func attempt(_ name: String, address: String?, settings: AppSettings, on database: PostgresPool) async throws {
        let first = settings[Shared.signInFirstWait]
        let longest = settings[Shared.signInLongestWait]
        if let seconds = try await count(key(name), free: settings[Shared.signInFreeFailures], first: first, longest: longest, on: database)
        {
            throw APIError.rateLimited("Too many failed sign-ins with this name; try again in \(duration(seconds)).")
        }
        if let address,
            let seconds = try await count(
                key(address: address), free: settings[Shared.signInAddressFreeFailures], first: first, longest: longest, on: database)
        {
            throw APIError.rateLimited("Too many failed sign-ins from this address; try again in \(duration(seconds)).")
        }
    }

    /// Counts a request for a password reset from `address`; throws
    /// RATE_LIMITED past `Shared.passwordResetsPerAddress` in the longest
    /// wait, whatever the addresses asked for (so it tells nothing of them).
    static func resetRequested(from address: String?, settings: AppSettings, on database: PostgresPool) async throws {
        guard let address else { return }
        if let seconds = try await count(
            "reset:" + ClientAddress.limitKey(address), free: settings[Shared.passwordResetsPerAddress],
            first: settings[Shared.signInFirstWait], longest: settings[Shared.signInLongestWait], on: database)
        {
            throw APIError.rateLimited("Too many password resets asked for from this address; try again in \(duration(seconds)).")
        }
    }

    static func key(address: String) -> String { "sign-in-address:" + ClientAddress.limitKey(address) }

    private static func duration(_ seconds: Int) -> String { "\(seconds) second\(seconds == 1 ? "" : "s")" }

    /// Counts a failure of `key` (hashed by the database); nil when counted, else the seconds the key
    /// is still blocked (the failure not counted).
    private static func count(_ key: String, free: Int, first: Int, longest: Int, on database: PostgresPool) async throws -> Int? {
        let counted = try await database.query(
            """
            WITH key AS MATERIALIZED (SELECT sign_in_throttle_hash($1) AS hash),
            stale AS (
                DELETE FROM sign_in_failures WHERE name_hash IN (
                    SELECT name_hash FROM sign_in_failures
                    WHERE last_failure_at < now() - make_interval(secs => $3) AND name_hash <> (SELECT hash FROM key) LIMIT 100)
            )
            INSERT INTO sign_in_failures AS f (name_hash, failures, blocked_until)
            VALUES ((SELECT hash FROM key), 1, CASE WHEN 1 >= $2 THEN now() + make_interval(secs => least($3, $4)) END)
            ON CONFLICT (name_hash) DO UPDATE SET
                failures = CASE WHEN f.last_failure_at < now() - make_interval(secs => $3) THEN 1 ELSE f.failures + 1 END,
                last_failure_at = now(),
                blocked_until = CASE
                    WHEN f.last_failure_at < now() - make_interval(secs => $3) THEN
                        CASE WHEN 1 >= $2 THEN now() + make_interval(secs => least($3, $4)) END
                    WHEN f.failures + 1 >= $2 THEN
                        now() + make_interval(secs => least($3::float8, $4 * power(2, least(f.failures + 1 - $2, 30))))
                    END
            WHERE f.blocked_until IS NULL OR f.blocked_until <= now()
            RETURNING failures
            """, [key, free, longest, first])
        guard counted.isEmpty else { return nil }
        let waiting = try await database.query(
            "SELECT greatest(1, ceil(extract(epoch FROM blocked_until - now())))::int FROM sign_in_failures WHERE name_hash = sign_in_throttle_hash($1)",
            [key])
        return try waiting.first?.decode(Int.self, at: 0) ?? 1
    }

    /// Checks the signed-in user's password again (changing the password or
    /// the address, deleting the account), counted as sign-ins with their
    /// name and address are: a stolen session cannot guess it faster than a
    /// stranger could. The stored hash; BAD_USER_INPUT with `wrong` when
    /// it does not match.
    static func recheck(_ password: String, of userID: Int64, context: RequestContext, wrong: String) async throws -> String {
        let rows = try await context.database.query("SELECT username, password_hash FROM users WHERE id = $1", [userID])
        guard let row = rows.first else { throw APIError.notFound("Your account no longer exists.") }
        let name = try row.decode(String.self, at: 0)
        let stored = try row.decode(String.self, at: 1)
        try await attempt(name, address: context.clientAddress, settings: context.settings, on: context.database)
        let matches = await context.database.loop.runInThreadPool { PasswordHash.verify(password, against: stored) }
        guard matches else { throw APIError.badInput(wrong) }
        try await succeeded(name, on: context.database)
        try await succeeded(from: context.clientAddress, on: context.database)
        return stored
    }

    /// A sign-in from `address` succeeded: the attempt counted for it is
    /// taken back (only that one: one's own account cannot wipe the
    /// address's other failures).
    static func succeeded(from address: String?, on database: PostgresPool) async throws {
        guard let address else { return }
        _ = try await database.query(
            """
            UPDATE sign_in_failures SET failures = failures - 1
            WHERE name_hash = sign_in_throttle_hash($1) AND failures > 1 AND blocked_until IS NULL
            """,
            [key(address: address)])
    }

    /// A sign-in with `name` succeeded: its failures are forgotten.
    static func succeeded(_ name: String, on database: PostgresPool) async throws {
        _ = try await database.query("DELETE FROM sign_in_failures WHERE name_hash = sign_in_throttle_hash($1)", [key(name)])
    }
}
