import GraphQL
import Testing

@Suite struct DocumentCacheTests {
    @Test func aRepeatedDocumentIsParsedAndValidatedOnce() {
        let cache = DocumentCache(schema: ValidationFixtures.schema, capacity: 10)
        guard case .valid = cache.entry(for: "{ dog { name } }") else { Issue.record("expected valid"); return }
        guard case .valid = cache.entry(for: "{ dog { name } }") else { Issue.record("expected valid"); return }
        #expect(cache.statistics.hits == 1)
        #expect(cache.statistics.misses == 1)
    }

    @Test func invalidDocumentsAreCachedWithTheirErrors() {
        let cache = DocumentCache(schema: ValidationFixtures.schema)
        for _ in 0..<3 {
            guard case .invalid(let errors) = cache.entry(for: "{ dog { nam } }") else { Issue.record("expected errors"); return }
            #expect(errors.map(\.message) == ["Cannot query field \"nam\" on type \"Dog\". Did you mean \"name\"?"])
        }
        guard case .invalid(let syntax) = cache.entry(for: "{ dog {") else { Issue.record("expected errors"); return }
        #expect(syntax.map(\.message) == ["Syntax Error: Expected Name, found <EOF>."])
        #expect(cache.statistics.hits == 2)
    }

    @Test func theLeastRecentlyUsedDocumentIsEvictedAtCapacity() {
        let cache = DocumentCache(schema: ValidationFixtures.schema, capacity: 3)
        for field in ["name", "nickname", "barks"] { _ = cache.entry(for: "{ dog { \(field) } }") }
        _ = cache.entry(for: "{ dog { name } }")           // name is now the most recent
        _ = cache.entry(for: "{ dog { barkVolume } }")     // evicts nickname
        #expect(cache.count == 3)
        let missesBefore = cache.statistics.misses
        _ = cache.entry(for: "{ dog { name } }")
        _ = cache.entry(for: "{ dog { barks } }")
        #expect(cache.statistics.misses == missesBefore)
        _ = cache.entry(for: "{ dog { nickname } }")
        #expect(cache.statistics.misses == missesBefore + 1)
    }
}
