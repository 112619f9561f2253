/// Names and numbers, the bulk of a document's tokens, are short ASCII
/// strings. The standard library keeps strings of up to 15 UTF-8 bytes
/// inline, in the string value's own 16 bytes: the code units, then a final
/// byte holding flags and the count. Its initialisers that take bytes check
/// them for valid UTF-8 in out-of-line code, which cost a tenth of parsing a
/// typical query; the lexer has already checked that these bytes are ASCII,
/// so it writes the inline form itself.
///
/// The layout is the standard library's, not a public promise, so it is
/// checked once against strings the library made itself: if they differ
/// (another standard library), every string is made the ordinary way.
enum SmallASCIIString {
    static let maxCount = 15

    /// A string of `bytes`, which must all be ASCII.
    @inline(__always)
    static func make(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if bytes.count <= maxCount, layoutMatches {
            return unsafeBitCast(inlineForm(bytes), to: String.self)
        }
        return String(unsafeUninitializedCapacity: bytes.count) { buffer in
            _ = buffer.initialize(from: bytes)
            return bytes.count
        }
    }

    /// The two words of an inline ASCII string: the bytes, little-endian, and
    /// in the last byte the discriminator (immortal, small, ASCII) and the count.
    @inline(__always)
    private static func inlineForm(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { raw in
            raw.copyMemory(from: UnsafeRawBufferPointer(bytes))
        }
        words.1 |= (0xE0 | UInt64(bytes.count)) << 56
        return (UInt64(littleEndian: words.0), UInt64(littleEndian: words.1))
    }

    /// Whether strings the library made from ASCII have the inline form above,
    /// for every length it applies to.
    static let layoutMatches: Bool = {
        guard MemoryLayout<String>.size == 16, UInt64(1).littleEndian == 1 else { return false }
        let alphabet = Array("aZ_09bY8xQ7mN6kL5".utf8)
        for count in 0...maxCount {
            var text = String(decoding: alphabet[..<count], as: UTF8.self)
            text.makeContiguousUTF8()
            let made = unsafeBitCast(text, to: (UInt64, UInt64).self)
            let ours = alphabet.withUnsafeBufferPointer { inlineForm(UnsafeBufferPointer(rebasing: $0[..<count])) }
            guard made == ours else { return false }
        }
        return true
    }()
}
