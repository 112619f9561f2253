/// Quoted-printable (RFC 2045, section 6.7): the body stays readable where
/// it is ASCII, lines stay within 76 characters, and any byte survives a
/// relay that rewrites line ends or trailing spaces.
enum QuotedPrintable {
    /// `text` encoded, its line breaks as CRLF.
    static func encode(_ text: String) -> String {
        var output = ""
        let lines = text.replacingLineEnds().split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            if index > 0 { output += "\r\n" }
            encode(line: Array(line.utf8), into: &output)
        }
        return output
    }

    private static func encode(line: [UInt8], into output: inout String) {
        var length = 0
        for (index, byte) in line.enumerated() {
            let isLast = index == line.count - 1
            let literal =
                (byte >= 33 && byte <= 126 && byte != UInt8(ascii: "="))
                // A space or tab at the end of a line would be taken off by a relay.
                || ((byte == 0x20 || byte == 0x09) && !isLast)
            let piece = literal ? String(UnicodeScalar(byte)) : escaped(byte)
            // A soft break ("=" then CRLF) keeps each line within 76
            // characters, the "=" included; the last line needs no room for it.
            if length + piece.utf8.count > (isLast ? 76 : 75) {
                output += "=\r\n"
                length = 0
            }
            output += piece
            length += piece.utf8.count
        }
    }

    private static func escaped(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return String(decoding: [UInt8(ascii: "="), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]], as: UTF8.self)
    }
}

extension String {
    /// CRLF and lone CR as LF.
    func replacingLineEnds() -> String {
        var scalars = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in unicodeScalars {
            if scalar == "\n", previous == "\r" {
                previous = scalar
                continue
            }
            scalars.append(scalar == "\r" ? "\n" : scalar)
            previous = scalar
        }
        return String(scalars)
    }
}
