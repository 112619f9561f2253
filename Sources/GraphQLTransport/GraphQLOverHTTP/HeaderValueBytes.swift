/// A header value's bytes, read in place: what the Accept and Content-Type
/// readings both need, without a String made of each piece.
extension Slice<UnsafeBufferPointer<UInt8>> {
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// Without the spaces and tabs at either end.
    func trimmingSpaces() -> Self {
        guard let first = firstIndex(where: { !Self.isSpace($0) }), let last = lastIndex(where: { !Self.isSpace($0) }) else {
            return self[startIndex..<startIndex]
        }
        return self[first...last]
    }

    /// Whether these bytes are `expected` (lower case), in any ASCII case.
    func equalsIgnoringASCIICase(_ expected: StaticString) -> Bool {
        guard count == expected.utf8CodeUnitCount else { return false }
        let wanted = UnsafeBufferPointer(start: expected.utf8Start, count: expected.utf8CodeUnitCount)
        return zip(self, wanted).allSatisfy { byte, want in (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == want }
    }
}
