import Testing

@testable import GraphQL

@Suite struct SmallASCIIStringTests {
    @Test func theStandardLibrarysLayoutIsTheOneExpected() {
        // Were this false, names would still be right, made the slow way; the
        // test says so, since the parser's speed depends on it.
        #expect(SmallASCIIString.layoutMatches)
    }

    @Test func madeStringsAreOrdinaryStringsOfEveryLength() {
        let characters = Array("_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
        for count in 0...40 {
            let bytes = (0..<count).map { characters[($0 * 7 + count) % characters.count] }
            let expected = String(decoding: bytes, as: UTF8.self)
            // Made from an exact buffer (bytes read one by one) and from one
            // with room to read whole words.
            let made = bytes.withUnsafeBufferPointer {
                SmallASCIIString.make($0, readable: count, layoutMatches: SmallASCIIString.layoutMatches)
            }
            let padded = bytes + Array(repeating: UInt8(ascii: "z"), count: 16)
            let madeByWords = padded.withUnsafeBufferPointer {
                SmallASCIIString.make(
                    UnsafeBufferPointer(rebasing: $0[..<count]), readable: padded.count, layoutMatches: SmallASCIIString.layoutMatches)
            }
            #expect(madeByWords == expected)
            #expect(made == expected)
            #expect(made.hashValue == expected.hashValue)
            #expect(made.utf8.count == count)
            #expect(Array(made.utf8) == bytes)
            #expect(made + "!" == expected + "!")
            #expect(made.hasPrefix(String(expected.prefix(count / 2))))
            var dictionary = [expected: count]
            dictionary[made, default: -1] += 1
            #expect(dictionary == [expected: count + 1])
        }
    }

    @Test func parsedNamesAreOrdinaryStrings() throws {
        let document = try parse("{ a abcdefghijklmno abcdefghijklmnop field(arg: 12345678901234567890) }")
        guard case .operation(let operation) = document.definitions[0] else {
            Issue.record("no operation")
            return
        }
        let names = operation.selectionSet.selections.map { selection -> String in
            guard case .field(let field) = selection else { return "" }
            return field.name.value
        }
        #expect(names == ["a", "abcdefghijklmno", "abcdefghijklmnop", "field"])
        guard case .field(let field) = operation.selectionSet.selections[3], case .int(let number) = field.arguments[0].value else {
            Issue.record("no argument")
            return
        }
        #expect(number.value == "12345678901234567890")
    }
}
