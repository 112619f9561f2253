import HuddlePostgres
import HuddleRuntime

/// A time zone a user gives (their own, their quiet hours'): a name of the
/// tz database as the PostgreSQL server knows it, since the database does
/// the arithmetic; not an abbreviation (EST) or a POSIX rule.
enum TimeZoneName {
    static func check(_ name: String, argument: String, on database: PostgresPool) async throws {
        let known = try await database.query(
            "SELECT EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = $1) AND $1 !~ '^(posix|right)/'", [name])
        guard name.utf8.count <= 64, try known[0].decode(Bool.self, at: 0) else {
            throw APIError.badInput("\(argument) must be an IANA time zone name, such as Europe/Paris.")
        }
    }
}
