import Formats
import Foundation
import HuddlePostgres
import HuddleRuntime
import PostgresTestSupport
import RuntimeTestSupport
import TestSupport
import Testing

/// Text decoding that needs no server: the fast paths against the slow ones.
@Suite struct PostgresDecodingTests {
    private func decode(_ text: String) throws -> Double {
        try Array(text.utf8).withUnsafeBufferPointer { try Double.decode(postgresText: $0, type: .float8) }
    }

    @Test func decimalsDecodeToTheCorrectlyRoundedDouble() throws {
        var generator = SystemRandomNumberGenerator()
        var texts = [
            "0", "-0", "1", "-1.5", "52.5234", "13.4050", "0.1", "0.3", "1e22", "1e-22", "123456789012345",
            "1234567890123456", "9007199254740993", "3.141592653589793", "2.2250738585072014e-308",
            "1.7976931348623157e+308", "5e-324", "1e23", "0.000001", "-123.456e-7", "Infinity", "-Infinity",
        ]
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...17, using: &generator)
            var text = String((0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
            let point = Int.random(in: 0...digits, using: &generator)
            if point < digits { text.insert(".", at: text.index(text.startIndex, offsetBy: point)) }
            if text.hasPrefix(".") { text = "0" + text }
            if Bool.random(using: &generator) { text += "e\(Int.random(in: -30...30, using: &generator))" }
            if Bool.random(using: &generator) { text = "-" + text }
            texts.append(text)
        }
        for text in texts {
            let expected = try #require(Double(text), "\(text)")
            let decoded = try decode(text)
            #expect(decoded.bitPattern == expected.bitPattern, "\(text): \(decoded) != \(expected)")
        }
        #expect(try decode("NaN").isNaN)
    }

    @Test func malformedNumbersAreRejected() {
        for text in ["", "-", ".", "1.2.3", "1e", "1e+", " 1", "1 ", "0x10", "1,5", "--1", "e5"] {
            #expect(throws: PostgresError.self, "\(text)") { try decode(text) }
        }
    }

    @Test func integerArraysDecodeOnTheFastPathAndTheGeneralOne() throws {
        func ids(_ text: String) throws -> [Int64] {
            try Array(text.utf8).withUnsafeBufferPointer { try [Int64].decode(postgresText: $0, type: PostgresType(rawValue: 1016)) }
        }
        #expect(try ids("{}") == [])
        #expect(try ids("{1,2,3}") == [1, 2, 3])
        #expect(try ids("{-5,0,9223372036854775807}") == [-5, 0, .max])
        // Beyond the fast path: the general reader takes these.
        #expect(try ids("{-9223372036854775808}") == [.min])
        #expect(try ids("[0:1]={7,8}") == [7, 8])
        #expect(try ids(#"{"4"}"#) == [4])
        for bad in ["{1,NULL}", "{1,,2}", "{1,2", "{9223372036854775808}", "{1,x}", "{,}"] {
            #expect(throws: PostgresError.self, "\(bad)") { try ids(bad) }
        }
    }

    @Test func integersEncodeAsTheirDecimalText() {
        func text(_ value: some PostgresEncodable) -> String {
            var buffer: [UInt8] = []
            value.encodePostgresText(into: &buffer)
            return String(decoding: buffer, as: UTF8.self)
        }
        for value in [Int64.min, -1_000, -1, 0, 7, 10, 12_345, .max] { #expect(text(value) == String(value)) }
        #expect(text(Int32.min) == "-2147483648")
        // A list of ids needs no quotes; other elements are quoted, so that
        // commas, braces, quotes and the word NULL survive.
        #expect(text([Int64(3), -4, 50]) == "{3,-4,50}")
        #expect(text([Int64]()) == "{}")
        #expect(text([3, -4]) == #"{"3","-4"}"#)
        #expect(text(["a,b", "NULL", #"q"u\o"#]) == #"{"a,b","NULL","q\"u\\o"}"#)
        #expect(text([Int64?.some(1), nil]) == #"{"1",NULL}"#)
    }

    @Test func integerArraysOfEveryWidthReadTheSame() throws {
        func decoded<Integer: PostgresDecodable>(_ text: String, as _: [Integer].Type) throws -> [Integer] {
            try Array(text.utf8).withUnsafeBufferPointer { try [Integer].decode(postgresText: $0, type: PostgresType(rawValue: 1007)) }
        }
        for text in ["{}", "{1,2,3}", "{-5,0,2147483647}", "{-2147483648}", "[0:1]={7,8}", #"{"4"}"#] {
            let wide = try decoded(text, as: [Int64].self)
            #expect(try decoded(text, as: [Int].self) == wide.map { Int($0) }, "\(text)")
            #expect(try decoded(text, as: [Int32].self) == wide.map { Int32($0) }, "\(text)")
        }
        // Past Int32's range: the fast path declines, the element's own reader refuses.
        #expect(throws: PostgresError.self) { try decoded("{2147483648}", as: [Int32].self) }
        #expect(try decoded("{2147483648}", as: [Int].self) == [2_147_483_648])
        // NULL: an error for a list of integers, nil for a list of optionals.
        #expect(throws: PostgresError.self) { try decoded("{1,NULL}", as: [Int].self) }
        #expect(try decoded("{1,NULL}", as: [Int?].self) == [1, nil])
    }

    @Test func textArraysReadQuotesEscapesAndNull() throws {
        func strings<Element: PostgresDecodable>(_ text: String, as _: [Element].Type) throws -> [Element] {
            try Array(text.utf8).withUnsafeBufferPointer { try [Element].decode(postgresText: $0, type: PostgresType(rawValue: 1009)) }
        }
        #expect(try strings("{}", as: [String].self) == [])
        #expect(
            try strings(#"{plain,"a,b","NULL","q\"uote","back\\slash","\\"," spaced ",ünï}"#, as: [String].self) == [
                "plain", "a,b", "NULL", #"q"uote"#, #"back\slash"#, #"\"#, " spaced ", "ünï",
            ])
        #expect(try strings(#"{"",x}"#, as: [String].self) == ["", "x"])
        #expect(try strings("[2:3]={a,b}", as: [String].self) == ["a", "b"])
        #expect(throws: PostgresError.self) { try strings("{a,NULL}", as: [String].self) }
        #expect(try strings("{a,NULL}", as: [String?].self) == ["a", nil])
        for bad in [#"{"open}"#, #"{"a\"}"#, "{a,}", "{a", "{{a}}", #"{"a"b}"#] {
            #expect(throws: PostgresError.self, "\(bad)") { try strings(bad, as: [String].self) }
        }
    }
}
