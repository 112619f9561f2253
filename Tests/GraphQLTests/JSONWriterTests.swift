import GraphQL
import Testing

/// The response writer against the text Swift (and JSON.stringify) gives.
@Suite struct JSONWriterTests {
    @Test func integersAreWrittenAsDecimalText() {
        var samples = [Int.min, Int.max, -1, 0, 9, 10, 99, 100, -2_147_483_648, 2_147_483_647]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 { samples.append(Int.random(in: Int.min...Int.max, using: &generator) >> Int.random(in: 0...62, using: &generator)) }
        for value in samples {
            var writer = JSONWriter(capacity: 32)
            writer.int(value)
            #expect(writer.text == String(value))
        }
    }

    @Test func stringsAreEscapedAsJSONRequires() {
        var writer = JSONWriter()
        writer.string("a\"b\\c\n\t\u{1}é😀")
        #expect(writer.text == #""a\"b\\c\n\t\u0001é😀""#)
    }
}
