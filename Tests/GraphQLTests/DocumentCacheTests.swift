import GraphQL
import Testing

@Suite struct DocumentCacheTests {
    @Test func aRepeatedDocumentIsParsedAndValidatedOnce() {
        let cache = DocumentCache(schema: ValidationFixtures.schema, capacity: 10)
        guard case .valid = cache.entry(for: "{ dog { name } }") else {
            Issue.record("expected valid")
            return
        }
        guard case .valid = cache.entry(for: "{ dog { name } }") else {
            Issue.record("expected valid")
            return
        }
        #expect(cache.statistics.hits == 1)
        #expect(cache.statistics.misses == 1)
    }

    @Test func invalidDocumentsAreCachedWithTheirErrors() {
        let cache = DocumentCache(schema: ValidationFixtures.schema)
        for _ in 0..<3 {
            guard case .invalid(let errors) = cache.entry(for: "{ dog { nam } }") else {
                Issue.record("expected errors")
                return
            }
            #expect(errors.map(\.message) == ["Cannot query field \"nam\" on type \"Dog\". Did you mean \"name\"?"])
        }
        guard case .invalid(let syntax) = cache.entry(for: "{ dog {") else {
            Issue.record("expected errors")
            return
        }
        #expect(syntax.map(\.message) == ["Syntax Error: Expected Name, found <EOF>."])
        #expect(cache.statistics.hits == 2)
    }

    @Test func theLeastRecentlyUsedDocumentIsEvictedAtCapacity() {
        let cache = DocumentCache(schema: ValidationFixtures.schema, capacity: 3)
        for field in ["name", "nickname", "barks"] { _ = cache.entry(for: "{ dog { \(field) } }") }
        _ = cache.entry(for: "{ dog { name } }")  // name is now the most recent
        _ = cache.entry(for: "{ dog { barkVolume } }")  // evicts nickname
        #expect(cache.count == 3)
        let missesBefore = cache.statistics.misses
        _ = cache.entry(for: "{ dog { name } }")
        _ = cache.entry(for: "{ dog { barks } }")
        #expect(cache.statistics.misses == missesBefore)
        _ = cache.entry(for: "{ dog { nickname } }")
        #expect(cache.statistics.misses == missesBefore + 1)
    }

    @Test func theTextBudgetEvictsAsManyDocumentsAsANewOneNeeds() {
        // Three 20-byte documents fill a 60-byte budget exactly.
        let small = ["{ dog { name     } }", "{ dog { nickname } }", "{ dog { barks    } }"]
        #expect(small.allSatisfy { $0.utf8.count == 20 })
        let cache = DocumentCache(schema: ValidationFixtures.schema, capacity: 10, maxTextBytes: 60)
        for text in small { _ = cache.entry(for: text) }
        #expect(cache.count == 3)
        #expect(cache.textBytes == 60)
        // One byte more than a slot's share evicts the two least recently used.
        let larger = "{ dog { barkVolume  } }"
        #expect(larger.utf8.count == 23)
        _ = cache.entry(for: larger)
        #expect(cache.count == 2)
        #expect(cache.textBytes == 43)
        let missesBefore = cache.statistics.misses
        _ = cache.entry(for: small[2])
        _ = cache.entry(for: larger)
        #expect(cache.statistics.misses == missesBefore)
        // Evicted slots are reused: filling up again keeps the bounds.
        for text in small + small { _ = cache.entry(for: text) }
        #expect(cache.count == 3 && cache.textBytes == 60)
    }

    @Test func aDocumentAsLargeAsTheBudgetIsKeptAndALargerOneIsNot() {
        let text = "{ dog { name } }"
        let atLimit = DocumentCache(schema: ValidationFixtures.schema, maxTextBytes: text.utf8.count)
        guard case .valid = atLimit.entry(for: text) else {
            Issue.record("expected valid")
            return
        }
        #expect(atLimit.count == 1)
        let overLimit = DocumentCache(schema: ValidationFixtures.schema, maxTextBytes: text.utf8.count - 1)
        for _ in 0..<2 {
            guard case .valid = overLimit.entry(for: text) else {
                Issue.record("expected valid")
                return
            }
        }
        #expect(overLimit.count == 0)
        #expect(overLimit.statistics.misses == 2)
    }
}
