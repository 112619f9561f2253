import Foundation
import GraphQL
import HuddleCore
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// The DateTime scalar: RFC 3339 text in, UTC with milliseconds out.
@Suite struct DateTimeScalarTests {
    static let executable: ExecutableSchema = {
        var builder = ExecutableSchema.Builder(
            schema: try! buildSchema(
                """
                scalar DateTime
                type Query { at(when: DateTime): DateTime next: DateTime }
                """))
        builder.scalar("DateTime", DateTimeScalar.coercion)
        builder.resolve("Query", "at") { input in .value(input.argument("when") ?? .null) }
        builder.resolve("Query", "next") { input in
            guard case .value(let root) = input.parent, let next = root["next"] else { return .null }
            return .value(next)
        }
        return try! builder.build()
    }()
    static var schema: GraphQLSchema { executable.schema }

    func run(_ query: String, variables: String = "{}", data: String = "{}") async throws -> String {
        let source = Source(body: query)
        let document = try parse(source)
        let errors = validate(schema: Self.schema, document: document, source: source)
        if !errors.isEmpty { return ExecutionResult(data: nil, errors: errors).json() }
        guard case .object(let variableMembers) = try JSONReader().read(variables) else { return "" }
        return await execute(
            schema: Self.executable, document: document, source: source, variables: variableMembers,
            rootValue: .value(try JSONReader().read(data))
        ).json()
    }

    @Test(arguments: [
        ("2026-11-21T18:30:00Z", "2026-11-21T18:30:00.000Z"),
        ("2026-11-21T18:30:00+01:00", "2026-11-21T17:30:00.000Z"),
        ("2026-11-21t18:30:00.1234-02:30", "2026-11-21T21:00:00.123Z"),
        ("2024-02-29T23:59:59.9Z", "2024-02-29T23:59:59.900Z"),
        ("1969-12-31T23:59:59.999Z", "1969-12-31T23:59:59.999Z"),
    ])
    func literalsAndVariablesAreNormalisedToUTC(_ input: String, _ output: String) async throws {
        #expect(try await run("{ at(when: \"\(input)\") }") == #"{"data":{"at":"\#(output)"}}"#)
        #expect(
            try await run("query ($w: DateTime) { at(when: $w) }", variables: #"{"w": "\#(input)"}"#) == #"{"data":{"at":"\#(output)"}}"#)
    }

    @Test(arguments: [
        "2026-02-30T00:00:00Z", "2026-11-21 18:30", "2026-11-21T18:30:00", "2026-13-01T00:00:00Z", "yesterday", "2026-11-21T25:00:00Z",
        "2026-11-21T18:30:00.Z",
    ])
    func invalidTextIsRejected(_ input: String) async throws {
        #expect(
            try await run("{ at(when: \"\(input)\") }")
                == #"{"errors":[{"message":"DateTime cannot represent an invalid date-time string: \"\#(input)\".","locations":[{"line":1,"column":12}]}]}"#
        )
        let variable = try await run("query ($w: DateTime) { at(when: $w) }", variables: #"{"w": "\#(input)"}"#)
        #expect(variable.contains("DateTime cannot represent an invalid date-time string"))
        #expect(!variable.contains("\"data\""))
    }

    @Test func resolversMayReturnMillisecondsOrText() async throws {
        #expect(try await run("{ next }", data: #"{"next": 1795285800000}"#) == #"{"data":{"next":"2026-11-21T18:30:00.000Z"}}"#)
        #expect(
            try await run("{ next }", data: #"{"next": "2026-11-21T19:30:00+01:00"}"#) == #"{"data":{"next":"2026-11-21T18:30:00.000Z"}}"#)
        #expect(
            try await run("{ next }", data: #"{"next": true}"#)
                == #"{"errors":[{"message":"DateTime cannot represent value: true","locations":[{"line":1,"column":3}],"path":["next"]}],"data":{"next":null}}"#
        )
    }

    @Test func formattingRoundTripsAcrossTheCalendar() {
        var generator = SystemRandomNumberGenerator()
        // Years 0001 to 9999, both sides of the epoch and of leap days.
        let range = -62_135_596_800_000...253_402_300_799_999
        var samples = [0, -1, 1, 951_782_400_000, 951_868_799_999, range.lowerBound, range.upperBound]
        for _ in 0..<10_000 { samples.append(Int.random(in: range, using: &generator)) }
        for milliseconds in samples {
            let text = DateTimeScalar.format(milliseconds: milliseconds)
            #expect(text.utf8.count == 24, "\(text)")
            #expect(DateTimeScalar.parse(text) == milliseconds, "\(milliseconds) -> \(text)")
        }
        #expect(DateTimeScalar.format(milliseconds: 1_795_285_800_123) == "2026-11-21T18:30:00.123Z")
    }

    /// Stored instants have microseconds; the API cuts them to milliseconds
    /// as PostgreSQL's to_char does, never later than the instant.
    @Test func instantsFromTheDatabaseAreCutToMilliseconds() {
        let base = 1_764_000_000.0
        #expect(Instant.milliseconds(Date(timeIntervalSince1970: base + 0.123_789)) == 1_764_000_000_123)
        #expect(Instant.milliseconds(Date(timeIntervalSince1970: base + 0.999_999)) == 1_764_000_000_999)
        // 0.123 has no exact binary form: its microseconds still say 123.
        #expect(Instant.milliseconds(Date(timeIntervalSince1970: base + 0.123)) == 1_764_000_000_123)
        #expect(Instant.milliseconds(Date(timeIntervalSince1970: -0.0015)) == -2)
        #expect(Instant.milliseconds(Date(timeIntervalSince1970: -0.001)) == -1)
        #expect(Instant.text(Date(timeIntervalSince1970: base + 0.123_789)) == "2025-11-24T16:00:00.123Z")
    }
}
