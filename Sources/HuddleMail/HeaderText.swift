/// Header field text as RFC 5322 and RFC 2047 want it: ASCII as it is,
/// anything else as "encoded words" (`=?UTF-8?B?…?=`), and long fields
/// folded onto continuation lines.
enum HeaderText {
    /// Unstructured text (a subject, a display name's words) ready for a
    /// field body: line breaks and control characters become spaces, and
    /// text that is not printable ASCII is encoded.
    static func encode(_ text: String) -> String {
        let flat = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
        if flat.unicodeScalars.allSatisfy({ $0.isASCII }), !flat.contains("=?") { return flat }
        return encodedWords(flat).joined(separator: " ")
    }

    /// A display name as a phrase: quoted when it holds specials, encoded when not ASCII.
    static func phrase(_ name: String) -> String {
        let flat = encode(name)
        if flat.hasPrefix("=?") { return flat }
        let plain = flat.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || " !#$%&'*+-/=?^_`{|}~".utf8.contains(byte)
        }
        if plain { return flat }
        return "\"" + flat.replacingOccurrences("\\", with: "\\\\").replacingOccurrences("\"", with: "\\\"") + "\""
    }

    /// UTF-8 text as base64 encoded words, none splitting a character's
    /// bytes (RFC 2047, sections 2 and 5). Each is at most 68 characters, not
    /// RFC 2047's 75, so that the first fits on its line after the longest
    /// field name it goes in (`Subject: `) within 78.
    static func encodedWords(_ text: String) -> [String] {
        // 68 - "=?UTF-8?B?".count - "?=".count = 56 characters of base64: 42 bytes.
        let budget = 42
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in text.unicodeScalars {
            let bytes = Array(String(character).utf8)
            if chunk.count + bytes.count > budget {
                words.append("=?UTF-8?B?\(Base64.encode(chunk))?=")
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { words.append("=?UTF-8?B?\(Base64.encode(chunk))?=") }
        return words
    }

    /// `Name: value`, folded at spaces so no line passes 78 characters
    /// where a space allows (RFC 5322, section 2.2.3).
    static func field(_ name: String, _ value: String) -> String {
        var lines: [String] = []
        var line = name + ":"
        for word in value.split(separator: " ", omittingEmptySubsequences: false) {
            if line.utf8.count + 1 + word.utf8.count > 78, line.utf8.count > name.utf8.count + 1 {
                lines.append(line)
                line = ""
            }
            line += " " + word
        }
        lines.append(line)
        return lines.joined(separator: "\r\n")
    }
}

extension String {
    func replacingOccurrences(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

/// Base64 (RFC 4648) without line breaks, as MIME bodies and encoded words take it.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let b0 = bytes[index]
            let b1 = index + 1 < bytes.count ? bytes[index + 1] : 0
            let b2 = index + 2 < bytes.count ? bytes[index + 2] : 0
            output.append(alphabet[Int(b0 >> 2)])
            output.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            output.append(index + 1 < bytes.count ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            output.append(index + 2 < bytes.count ? alphabet[Int(b2 & 0x3F)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
