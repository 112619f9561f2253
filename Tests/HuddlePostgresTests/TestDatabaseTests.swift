import CLibPQ
import Foundation
import PostgresTestSupport
import RuntimeTestSupport
import TestSupport
import Testing

/// The test command starts a private PostgreSQL and exports DATABASE_URL;
/// the database tests of later layers stand on it answering.
@Suite struct TestDatabaseTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["DATABASE_URL"] != nil))
    func testDatabaseAnswers() throws {
        let url = try #require(ProcessInfo.processInfo.environment["DATABASE_URL"])
        let connection = try #require(PQconnectdb(url))
        defer { PQfinish(connection) }
        #expect(PQstatus(connection) == CONNECTION_OK, "\(String(cString: PQerrorMessage(connection)))")
        let result = PQexec(connection, "SELECT current_setting('server_version_num')::int >= 140000")
        defer { PQclear(result) }
        #expect(PQresultStatus(result) == PGRES_TUPLES_OK)
        #expect(String(cString: PQgetvalue(result, 0, 0)) == "t")
    }
}
