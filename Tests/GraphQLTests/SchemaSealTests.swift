import Testing

@testable import GraphQL

/// A built schema's types are shared between threads without a lock, which
/// is safe only while nothing changes them: the schema seals them, and a
/// debug build stops at a change after that.
@Suite struct SchemaSealTests {
    #if DEBUG
        @Test func aTypeChangedAfterItsSchemaIsMadeStopsTheRun() async {
            await #expect(processExitsWith: .failure) {
                let schema = try buildSchema("type Query { a: Int }")
                schema.queryType?.description = "changed"
            }
        }

        @Test func anArgumentsDefaultChangedAfterItsSchemaIsMadeStopsTheRun() async {
            await #expect(processExitsWith: .failure) {
                let schema = try buildSchema("type Query { a(x: Int = 1): Int }")
                schema.queryType?.field(named: "a")?.arguments.first?.defaultValue = .int(2)
            }
        }
    #endif

    @Test func buildingSchemasLeavesTheBuiltInDirectivesAlone() async throws {
        // Every SDL gets @deprecated, @include and @skip from one shared
        // set: building one schema must not write to them (it once coerced
        // their default values again, a write other threads raced with).
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let schema = try buildSchema("type Query { a\(index): Int @deprecated }")
                    #expect(schema.directive(named: "deprecated")?.arguments.first?.defaultValue == .string("No longer supported"))
                }
            }
            try await group.waitForAll()
        }
    }
}
