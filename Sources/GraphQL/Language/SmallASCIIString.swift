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

    /// A string of `bytes`, which must all be ASCII; `readable` bytes from
    /// their start may be read. Pass `layoutMatches`, read once by the
    /// caller: reading the lazily made global costs a call.
    @inline(__always)
    static func make(_ bytes: UnsafeBufferPointer<UInt8>, readable: Int, layoutMatches: Bool) -> String {
        if bytes.count <= maxCount, layoutMatches {
            return unsafeBitCast(inlineForm(bytes, readable: readable), to: String.self)
        }
        return String(unsafeUninitializedCapacity: bytes.count) { buffer in
            _ = buffer.initialize(from: bytes)
            return bytes.count
        }
    }

    /// The two words of an inline ASCII string: the bytes, little-endian, and
    /// in the last byte the discriminator (immortal, small, ASCII) and the count.
    /// `readable` says how many bytes from the start may be read (the rest of
    /// the source): with 16 of them, the bytes are read as two words and masked.
    @inline(__always)
    private static func inlineForm(_ bytes: UnsafeBufferPointer<UInt8>, readable: Int) -> (UInt64, UInt64) {
        let count = bytes.count
        var low: UInt64 = 0
        var high: UInt64 = 0
        if readable >= 16, let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            low = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            if count < 8 {
                low &= (1 << (8 * UInt64(count))) &- 1
                high = 0
            } else {
                high &= (1 << (8 * UInt64(count - 8))) &- 1
            }
        } else {
            var index = 0
            while index < count && index < 8 {
                low |= UInt64(bytes[index]) << (8 * UInt64(index))
                index += 1
            }
            while index < count {
                high |= UInt64(bytes[index]) << (8 * UInt64(index - 8))
                index += 1
            }
        }
        high |= (0xE0 | UInt64(count)) << 56
        return (low, high)
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
            let ours = alphabet.withUnsafeBufferPointer { inlineForm(UnsafeBufferPointer(rebasing: $0[..<count]), readable: count) }
            guard made == ours else { return false }
        }
        return true
    }()
}
