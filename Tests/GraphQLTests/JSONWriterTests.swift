import Formats
import Testing

@testable import GraphQL

/// The response writer against the text Swift (and JSON.stringify) gives.
@Suite struct JSONWriterTests {
    @Test func integersAreWrittenAsDecimalText() {
        var samples = [Int.min, Int.max, -1, 0, 9, 10, 99, 100, -2_147_483_648, 2_147_483_647]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            samples.append(Int.random(in: Int.min...Int.max, using: &generator) >> Int.random(in: 0...62, using: &generator))
        }
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

    /// Strings are scanned eight bytes at a time: every character that needs
    /// escaping is escaped wherever it falls in a word, and nothing else is.
    @Test func escapingFindsEveryCharacterAtEveryPosition() {
        func reference(_ text: String) -> String {
            var result = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": result += "\\\""
                case "\\": result += "\\\\"
                case "\u{8}": result += "\\b"
                case "\u{C}": result += "\\f"
                case "\n": result += "\\n"
                case "\r": result += "\\r"
                case "\t": result += "\\t"
                case _ where scalar.value < 0x20:
                    result += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
                default: result.unicodeScalars.append(scalar)
                }
            }
            return result + "\""
        }
        let specials: [Character] = ["\"", "\\", "\u{0}", "\u{1F}", "\n", " ", "~", "\u{7F}", "é", "😀", "A", "!", "#", "]"]
        for length in 0...20 {
            for position in 0..<max(length, 1) {
                for special in specials {
                    var characters = Array(repeating: Character("x"), count: length)
                    if length > 0 { characters[position] = special }
                    let text = String(characters)
                    var writer = JSONWriter(capacity: 8)
                    writer.string(text)
                    #expect(writer.text == reference(text), "\(text.debugDescription)")
                }
            }
        }
    }
}

/// The short path for doubles against the general formatter (JavaScript's
/// digits, through Swift's shortest round-trip description).
@Suite struct ShortDecimalTests {
    func written(_ value: Double) -> String {
        var writer = JSONWriter(capacity: 32)
        writer.double(value)
        return writer.text
    }

    func check(_ value: Double) {
        guard value.isFinite else { return }
        #expect(written(value) == JavaScriptNumber.format(value), "\(value.bitPattern)")
    }

    @Test func fewDecimalPlacesAreWrittenAsJavaScriptWritesThem() {
        for numerator in -20_000...20_000 {
            check(Double(numerator) / 8)
            check(Double(numerator) / 100)
            check(Double(numerator) / 3)
        }
        for value in [0.1, 0.2, 0.3, 0.1 + 0.2, 1e-4, 1.5e-4, 9.999e14, 123456.789, 52.520008, 13.404954, -0.0001, 1e15 - 0.5] {
            check(value)
        }
    }

    @Test func coordinatesAndRandomValuesAgreeWithTheGeneralPath() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<40_000 {
            // Coordinates with six places, and arbitrary doubles of every magnitude.
            let places = Int.random(in: 1...8, using: &generator)
            let scale = (0..<places).reduce(1.0) { scale, _ in scale * 10 }
            check((Double.random(in: -180...180, using: &generator) * scale).rounded() / scale)
            check(Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator)))
            check(Double.random(in: -1e6...1e6, using: &generator))
        }
    }
}
