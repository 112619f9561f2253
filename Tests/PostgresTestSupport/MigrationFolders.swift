import Foundation
import RuntimeTestSupport
import TestSupport

extension TestDatabase {
    /// A directory of migration files, removed afterwards.
    @discardableResult
    package static func withMigrations<T>(_ files: [String: String], _ body: (String) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("huddle-migrations-\(UUID().uuidString.prefix(8))")
            .path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (name, sql) in files { try sql.write(toFile: "\(directory)/\(name)", atomically: true, encoding: .utf8) }
        return try await body(directory)
    }

    /// Two migrations of a "game" app: tables, rows, a function with semicolons in its body.
    package static let gameMigrations = [
        "0001_players.sql": """
        CREATE TABLE players (id serial PRIMARY KEY, name text NOT NULL UNIQUE);
        INSERT INTO players (name) VALUES ('ana'), ('bo');
        """,
        "0002_scores.sql": """
        CREATE TABLE scores (player integer NOT NULL REFERENCES players, points integer NOT NULL CHECK (points >= 0));
        -- a comment; and a function body with semicolons inside
        CREATE FUNCTION total() RETURNS bigint LANGUAGE sql AS $$ SELECT coalesce(sum(points), 0) FROM scores; $$;
        """,
    ]
}
