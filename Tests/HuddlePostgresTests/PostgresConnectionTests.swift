import Foundation
import HuddlePostgres
import HuddleRuntime
import PostgresTestSupport
import RuntimeTestSupport
import TestSupport
import Testing

/// One libpq connection in pipeline mode on the loop, against the test
/// command's PostgreSQL.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct PostgresConnectionTests {
    @Test func everyTypeRoundTripsAsABoundParameter() async throws {
        try await TestDatabase.withPool { pool, _ async throws in
            let uuid = UUID()
            let instant = Date(timeIntervalSince1970: 1_795_000_000.123456)
            let rows = try await pool.query(
                """
                SELECT $1::bool, $2::int2, $3::int4, $4::int8, $5::float4, $6::float8, $7::numeric,
                       $8::text, $9::uuid, $10::bytea, $11::date, $12::timestamptz, $13::interval,
                       $14::jsonb, $15::int4[], $16::text[], $17::int8, $18::timestamptz[], $19::bool[]
                """,
                [
                    true, Int16(-32768), Int32(2_147_483_647), Int64.min, Float(1.5), 3.141592653589793,
                    PostgresNumeric("12345678901234567890.123456789"), "héllo, \"wörld\"\n\\ ✓",
                    uuid, PostgresBytea([0, 1, 0xFE, 0xFF]), PostgresDate(year: 2026, month: 2, day: 28),
                    instant, PostgresInterval(months: 14, days: 3, microseconds: 4 * 3_600_000_000 + 500_000),
                    PostgresJSON(#"{"a": [1, "b", null]}"#), [1, 2, 3], ["a,b", "NULL", #"q"uote"#, "{}"],
                    Int?.none, [instant], [true, false],
                ]
            )
            #expect(rows.count == 1)
            let row = rows[0]
            #expect(try row.decode(Bool.self, at: 0) == true)
            #expect(try row.decode(Int16.self, at: 1) == -32768)
            #expect(try row.decode(Int32.self, at: 2) == 2_147_483_647)
            #expect(try row.decode(Int64.self, at: 3) == Int64.min)
            #expect(try row.decode(Float.self, at: 4) == 1.5)
            #expect(try row.decode(Double.self, at: 5) == 3.141592653589793)
            #expect(try row.decode(PostgresNumeric.self, at: 6).text == "12345678901234567890.123456789")
            #expect(try row.decode(String.self, at: 7) == "héllo, \"wörld\"\n\\ ✓")
            #expect(try row.decode(UUID.self, at: 8) == uuid)
            #expect(try row.decode([UInt8].self, at: 9) == [0, 1, 0xFE, 0xFF])
            #expect(try row.decode(PostgresDate.self, at: 10) == PostgresDate(year: 2026, month: 2, day: 28))
            #expect(try row.decode(Date.self, at: 11) == instant)
            #expect(
                try row.decode(PostgresInterval.self, at: 12)
                    == PostgresInterval(months: 14, days: 3, microseconds: 4 * 3_600_000_000 + 500_000))
            #expect(try row.decode(PostgresJSON.self, at: 13).text == #"{"a": [1, "b", null]}"#)
            #expect(try row.decode([Int].self, at: 14) == [1, 2, 3])
            #expect(try row.decode([String].self, at: 15) == ["a,b", "NULL", #"q"uote"#, "{}"])
            #expect(try row.decode(Int?.self, at: 16) == nil)
            #expect(throws: PostgresError.self) { try row.decode(Int.self, at: 16) }
            #expect(try row.decode([Date].self, at: 17) == [instant])
            #expect(try row.decode([Bool].self, at: 18) == [true, false])
            // The same values read without naming their types.
            #expect(try row.value(at: 0) == .bool(true))
            #expect(try row.value(at: 3) == .integer(Int64.min))
            #expect(try row.value(at: 16) == .null)
            #expect(try row.value(at: 15) == .array([.text("a,b"), .text("NULL"), .text(#"q"uote"#), .text("{}")]))
            #expect(try row.value(at: 12) == .interval(PostgresInterval(months: 14, days: 3, microseconds: 14_400_500_000)))
        }
    }

    @Test func specialValuesAndNullsInsideArrays() async throws {
        try await TestDatabase.withPool { pool, _ async throws in
            let row = try await pool.query(
                """
                SELECT 'infinity'::timestamptz, '-infinity'::timestamptz, 'NaN'::float8, '-Infinity'::float8,
                       ARRAY[1, NULL, 3]::int4[], '{}'::text[], '-1 day -02:03:04.5'::interval,
                       '1969-12-31 23:59:59.999999+00'::timestamptz, '2026-06-01 12:00:00+05:30'::timestamptz
                """
            )[0]
            #expect(try row.decode(Date.self, at: 0) == .distantFuture)
            #expect(try row.decode(Date.self, at: 1) == .distantPast)
            #expect(try row.decode(Double.self, at: 2).isNaN)
            #expect(try row.decode(Double.self, at: 3) == -.infinity)
            #expect(try row.decode([Int?].self, at: 4) == [1, nil, 3])
            #expect(try row.decode([String].self, at: 5) == [])
            #expect(
                try row.decode(PostgresInterval.self, at: 6)
                    == PostgresInterval(days: -1, microseconds: -(2 * 3600 + 3 * 60 + 4) * 1_000_000 - 500_000))
            #expect(try row.decode(Date.self, at: 7) == Date(timeIntervalSince1970: -0.000001))
            #expect(try row.decode(Date.self, at: 8) == Date(timeIntervalSince1970: 1_780_295_400))
        }
    }

    @Test func statementsSentInOneLoopTurnAreInFlightTogether() async throws {
        var configuration = TestDatabase.configuration()
        configuration.statementTimeout = .seconds(5)
        let running = RunningLoop()
        let connection = try await PostgresConnection.connect(configuration, on: running.loop)
        let (inFlight, results) = try await running.loop.onLoop {
            // Three independent statements started in the same turn...
            let first = Task(executorPreference: running.loop) { try await connection.query("SELECT 1 + $1::int", [1]) }
            let second = Task(executorPreference: running.loop) { try await connection.query("SELECT 'two'") }
            let third = Task(executorPreference: running.loop) { try await connection.query("SELECT $1::text || 'ree'", ["th"]) }
            // ...are all sent before the loop next reads the socket: a job
            // queued behind them sees all three in flight.
            let inFlight = await withCheckedContinuation { continuation in
                running.loop.enqueue { continuation.resume(returning: connection.statementsInFlight) }
            }
            return (
                inFlight,
                [
                    try await first.value[0].decode(String.self, at: 0),
                    try await second.value[0].decode(String.self, at: 0),
                    try await third.value[0].decode(String.self, at: 0),
                ]
            )
        }
        #expect(inFlight == 3)
        #expect(results == ["2", "two", "three"])
        connection.close()
        await running.stop()
    }

    @Test func aFailingStatementLeavesItsNeighboursInThePipelineAlone() async throws {
        try await TestDatabase.withPool({ $0.maxConnections = 1 }) { pool, loop async throws in
            try await loop.onLoop { () async throws in
                let good = Task(executorPreference: loop) { try await pool.query("SELECT 1") }
                let bad = Task(executorPreference: loop) { try await pool.query("SELECT 1/0") }
                let unprepared = Task(executorPreference: loop) { try await pool.query("SELECT nosuchcolumn") }
                let after = Task(executorPreference: loop) { try await pool.query("SELECT 2") }
                #expect(try await good.value[0].decode(Int.self, at: 0) == 1)
                await #expect { try await bad.value } throws: { ($0 as? PostgresError)?.sqlState == "22012" }
                await #expect { try await unprepared.value } throws: {
                    ($0 as? PostgresError)?.message == "column \"nosuchcolumn\" does not exist"
                }
                #expect(try await after.value[0].decode(Int.self, at: 0) == 2)
                // The statement that failed to prepare is not remembered as prepared.
                await #expect(throws: PostgresError.self) { try await pool.query("SELECT nosuchcolumn") }
            }
        }
    }

    /// Far more than a socket buffer holds, both ways: libpq's output is
    /// flushed as the socket drains, and the result read as it arrives.
    @Test func largeParametersAndResultsCrossTheSocket() async throws {
        try await TestDatabase.withPool { pool, _ async throws in
            let big = String(repeating: "0123456789abcdef", count: 1 << 19)  // 8 MiB
            let row = try await pool.query(
                "SELECT length($1::text), encode(sha256(convert_to($1::text, 'UTF8')), 'hex'), repeat('x', 8388608)", [big])[0]
            #expect(try row.decode(Int.self, at: 0) == big.utf8.count)
            #expect(try row.decode(String.self, at: 1) == Digest.sha256Hex(Array(big.utf8)))
            #expect(try row.decode(String.self, at: 2).utf8.count == 8_388_608)
        }
    }
}
