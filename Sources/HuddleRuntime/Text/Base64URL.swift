/// Unpadded base64url (RFC 4648 §5), for global ids, cursors, JSON Web
/// Tokens and Web Push's keys: written
/// straight into the String's storage, since Foundation's base64 and
/// character replacement cost more than the rest of an id's resolution.
package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        // Standard base64's characters too, so ids written either way decode.
        table[Int(UInt8(ascii: "+"))] = 62
        table[Int(UInt8(ascii: "/"))] = 63
        return table
    }()

    package static func encode(_ text: String) -> String {
        var text = text
        return text.withUTF8 { encode(bytes: $0) }
    }

    package static func encode(bytes: UnsafeBufferPointer<UInt8>) -> String {
        let length = (bytes.count * 4 + 2) / 3
        return String(unsafeUninitializedCapacity: length) { output in
            var out = 0
            var index = 0
            while index + 3 <= bytes.count {
                let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                output[out] = alphabet[Int(chunk >> 18 & 63)]
                output[out + 1] = alphabet[Int(chunk >> 12 & 63)]
                output[out + 2] = alphabet[Int(chunk >> 6 & 63)]
                output[out + 3] = alphabet[Int(chunk & 63)]
                out += 4
                index += 3
            }
            let rest = bytes.count - index
            if rest > 0 {
                let chunk = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
                output[out] = alphabet[Int(chunk >> 18 & 63)]
                output[out + 1] = alphabet[Int(chunk >> 12 & 63)]
                out += 2
                if rest == 2 {
                    output[out] = alphabet[Int(chunk >> 6 & 63)]
                    out += 1
                }
            }
            return out
        }
    }

    package static func encode(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { encode(bytes: $0) }
    }

    /// The decoded text, or nil for anything that is not base64 (padding allowed) or not UTF-8.
    package static func decode(_ text: String) -> String? {
        decodeBytes(text).flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// The decoded bytes, or nil for anything that is not base64 (either
    /// alphabet, padding allowed).
    package static func decodeBytes(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var text = text
        let valid: Bool = text.withUTF8 { input in
            var end = input.count
            while end > 0, input[end - 1] == UInt8(ascii: "=") { end -= 1 }
            guard end % 4 != 1 else { return false }
            bytes.reserveCapacity(end * 3 / 4)
            var buffer: UInt32 = 0
            var bits = 0
            for byte in input[..<end] {
                let value = values[Int(byte)]
                guard value != 0xFF else { return false }
                buffer = buffer << 6 | UInt32(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
                }
            }
            return true
        }
        return valid ? bytes : nil
    }
}
