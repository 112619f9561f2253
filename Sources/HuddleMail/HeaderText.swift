import Foundation

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
        return "\"" + flat.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
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
                words.append("=?UTF-8?B?\(Data(chunk).base64EncodedString())?=")
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { words.append("=?UTF-8?B?\(Data(chunk).base64EncodedString())?=") }
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
