import Foundation
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// `huddle places import` fills the gazetteer from GeoNames-format files
/// (carried here: a few places, postal codes, and lines that are neither),
/// and `searchPlaces` finds what a user types: a beginning, a misspelling,
/// a postal code.
@Suite(.enabled(if: TestDatabase.available), .hangGuard) struct PlacesCommandTests {
    static func fixture(_ name: String) -> String {
        Bundle.module.url(forResource: name, withExtension: "txt", subdirectory: "Fixtures")!.path
    }

    @Test func importsGeoNamesFilesAndSearchesThemAsAUserTypes() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let environment = ["DATABASE_URL": url]
            let migrated = try await offThePool { try HuddleCommand.run(["migrate"], environment: environment) }
            #expect(migrated.status == 0, "\(migrated.standardError)")
            let files = [Self.fixture("places-sample"), Self.fixture("postal-codes-sample")]
            let imported = try HuddleCommand.run(["places", "import"] + files, environment: environment)
            #expect(imported.status == 0, "\(imported.standardError)")
            // Six populated places (the river is not one); the line of no format and the one off the globe are skipped, and said.
            #expect(
                imported.standardOutput
                    == "\(files[0]): 6 places imported, 2 lines skipped\n\(files[1]): 3 places imported, 0 lines skipped\n",
                "\(imported.standardOutput)")
            #expect(imported.standardError.contains("line 4: 4 columns"), "\(imported.standardError)")
            #expect(imported.standardError.contains("line 9: coordinates out of range"), "\(imported.standardError)")
            // Again: the same places, replaced, not doubled.
            let again = try HuddleCommand.run(["places", "import"] + files, environment: environment)
            #expect(again.status == 0, "\(again.standardError)")
            let places = try await TestDatabase.withPool(url: url) { pool, _ in
                try await pool.query("SELECT count(*)::int FROM places")[0].decode(Int.self, at: 0)
            }
            #expect(places == 9)
            // A beginning is searched as a range the pattern-order index serves
            // even in a generic plan, as every statement of the server's is.
            let plan = try await TestDatabase.withPool(url: url) { pool, _ in
                try await pool.withTransaction { connection in
                    _ = try await connection.query("SET LOCAL plan_cache_mode = force_generic_plan")
                    _ = try await connection.query("SET LOCAL enable_seqscan = off")
                    _ = try await connection.query(
                        "PREPARE beginning(text, text) AS SELECT id FROM places p WHERE p.search_name ~>=~ $1 AND p.search_name ~<~ $2")
                    let rows = try await connection.query("EXPLAIN EXECUTE beginning('brook', 'brool')")
                    _ = try await connection.query("DEALLOCATE beginning")
                    return try rows.map { try $0.decode(String.self, at: 0) }.joined(separator: "\n")
                }
            }
            #expect(plan.contains("places_search_prefix"), "\(plan)")
            // Lines that end in CRLF read the same.
            let crlf = FileManager.default.temporaryDirectory.appendingPathComponent("crlf-\(UInt32.random(in: 0...UInt32.max)).txt")
            let postal = try String(contentsOfFile: files[1], encoding: .utf8).replacingOccurrences(of: "\n", with: "\r\n")
            try Data(postal.utf8).write(to: crlf)
            defer { try? FileManager.default.removeItem(at: crlf) }
            let windows = try HuddleCommand.run(["places", "import", crlf.path], environment: environment)
            #expect(windows.standardOutput == "\(crlf.path): 3 places imported, 0 lines skipped\n", "\(windows)")
            // A file with no place in it fails.
            let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-places-\(UInt32.random(in: 0...UInt32.max)).txt")
            try Data("just words\n".utf8).write(to: empty)
            defer { try? FileManager.default.removeItem(at: empty) }
            let nothing = try HuddleCommand.run(["places", "import", empty.path], environment: environment)
            #expect(nothing.status == 1 && nothing.standardOutput.contains("0 places imported"), "\(nothing)")

            let server = try await TestServer.launch(databaseURL: url)
            defer { server.stop() }
            func names(_ query: String, _ extra: String = "") async throws -> [String] {
                let answer = try await server.graphql(
                    "query($q: String!) { searchPlaces(query: $q\(extra)) { name countryCode postalCode } }", ["q": query])
                #expect(answer["errors"].isNull, "\(answer)")
                return answer["data"]["searchPlaces"].array.map {
                    [$0["name"].string ?? "", $0["countryCode"].string ?? "", $0["postalCode"].string ?? ""].joined(separator: " ")
                        .trimmingCharacters(in: .whitespaces)
                }
            }
            // Beginnings, larger first: the borough before the Massachusetts town, then its postal codes' areas.
            #expect(try await names("brookl") == ["Brooklyn US", "Brookline US", "Brooklyn US 11201", "Brooklyn US 11211"])
            // Misspelt.
            #expect(try await names("Brookyln").first == "Brooklyn US")
            // By the ASCII name too; by postal code, in any case.
            #expect(try await names("zurich") == ["Zürich CH"])
            #expect(try await names("1121") == ["Brooklyn US 11211"])
            #expect(try await names("sw1") == ["London GB SW1A"])
            // One country's, and the bigger Paris first otherwise.
            #expect(try await names("Paris") == ["Paris FR", "Paris US"])
            #expect(try await names("Paris", ", countryCode: \"us\"") == ["Paris US"])
            let whole = try await server.graphql(
                #"{ searchPlaces(query: "queens") { name region latitude longitude population timeZone } }"#)
            let queens = whole["data"]["searchPlaces"][0]
            #expect(queens["region"].string == "NY" && queens["latitude"].double == 40.6815 && queens["longitude"].double == -73.8365)
            #expect(queens["population"].int == 2_405_464 && queens["timeZone"].string == "America/New_York", "\(whole)")

            // The limits, at and over.
            let fifty = try await server.graphql(#"{ searchPlaces(query: "b", first: 50) { name } }"#)
            #expect(fifty["errors"].isNull, "\(fifty)")
            for refused in [
                #"{ searchPlaces(query: "b", first: 51) { name } }"#, #"{ searchPlaces(query: "  ") { name } }"#,
                "{ searchPlaces(query: \"\(String(repeating: "a", count: 101))\") { name } }",
                #"{ searchPlaces(query: "paris", countryCode: "USA") { name } }"#,
            ] {
                let answer = try await server.graphql(refused)
                #expect(answer["errors"][0]["extensions"]["code"].string == "BAD_USER_INPUT", "\(answer)")
            }
            let hundred = try await server.graphql("{ searchPlaces(query: \"\(String(repeating: "a", count: 100))\") { name } }")
            #expect(hundred["errors"].isNull, "\(hundred)")
        }
    }
}
