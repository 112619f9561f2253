/// Checks UTF-8 as it arrives in pieces: fails as soon as the bytes so far
/// cannot start a valid string (overlong forms, surrogates, code points past
/// U+10FFFF included).
package struct UTF8Validator: Sendable {
    private var needed = 0
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    package var isComplete: Bool { needed == 0 }

    /// Whether `bytes` are, whole, valid UTF-8.
    package static func isValid(_ bytes: [UInt8]) -> Bool {
        var validator = UTF8Validator()
        return validator.consume(bytes) && validator.isComplete
    }

    package mutating func consume(_ bytes: [UInt8]) -> Bool {
        for byte in bytes {
            if needed == 0 {
                switch byte {
                case 0x00...0x7F: continue
                case 0xC2...0xDF: needed = 1
                case 0xE0:
                    needed = 2
                    lower = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: needed = 2
                case 0xED:
                    needed = 2
                    upper = 0x9F
                case 0xF0:
                    needed = 3
                    lower = 0x90
                case 0xF1...0xF3: needed = 3
                case 0xF4:
                    needed = 3
                    upper = 0x8F
                default: return false
                }
            } else {
                guard byte >= lower && byte <= upper else { return false }
                lower = 0x80
                upper = 0xBF
                needed -= 1
            }
        }
        return true
    }
}
