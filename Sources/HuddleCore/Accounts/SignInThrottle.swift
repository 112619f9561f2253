import Foundation
import HuddlePostgres

/// Failed sign-ins, counted by the name tried (whether or not an account
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
    /// Where a name's failures are kept: its SHA-256, lower-cased, never the name.
    static func key(_ name: String) -> String { Authentication.hash("sign-in:" + name.lowercased()) }

    /// Counts an attempt with `name` as a failure until it succeeds; throws
    /// RATE_LIMITED while the name is blocked (the attempt not counted).
    static func attempt(_ name: String, settings: AppSettings, on database: PostgresPool) async throws {
        let free = settings[Shared.signInFreeFailures]
        let first = settings[Shared.signInFirstWait]
        let longest = settings[Shared.signInLongestWait]
        let counted = try await database.query(
            """
            WITH stale AS (
                DELETE FROM sign_in_failures WHERE name_hash IN (
                    SELECT name_hash FROM sign_in_failures
                    WHERE last_failure_at < now() - make_interval(secs => $3) AND name_hash <> $1 LIMIT 100)
            )
            INSERT INTO sign_in_failures AS f (name_hash, failures, blocked_until)
            VALUES ($1, 1, CASE WHEN 1 >= $2 THEN now() + make_interval(secs => least($3, $4)) END)
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
            """, [key(name), free, longest, first])
        guard counted.isEmpty else { return }
        let waiting = try await database.query(
            "SELECT greatest(1, ceil(extract(epoch FROM blocked_until - now())))::int FROM sign_in_failures WHERE name_hash = $1",
            [key(name)])
        let seconds = try waiting.first?.decode(Int.self, at: 0) ?? 1
        throw APIError.rateLimited("Too many failed sign-ins with this name; try again in \(seconds) second\(seconds == 1 ? "" : "s").")
    }

    /// A sign-in with `name` succeeded: its failures are forgotten.
    static func succeeded(_ name: String, on database: PostgresPool) async throws {
        _ = try await database.query("DELETE FROM sign_in_failures WHERE name_hash = $1", [key(name)])
    }
}
