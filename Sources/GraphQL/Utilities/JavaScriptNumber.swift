/// Numbers written as JavaScript's `String(number)` writes them, which is how
/// graphql-js prints default values and serialises floats: integers without
/// a fraction below 1e21, exponents past 1e21 and below 1e-6.
enum JavaScriptNumber {
    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == 0 { return "0" }
        if value == value.rounded(), abs(value) < 1e21 {
            // Exact integers print in full; Int covers all of them below 2^63.
            if abs(value) < 9.2e18 { return String(Int64(value)) }
        }
        // Between 1e-4 and 1e16 Swift and JavaScript both write the shortest
        // round-trip digits in plain decimal notation.
        let magnitude = abs(value)
        if magnitude >= 1e-4 && magnitude < 1e16 { return String(describing: value) }
        let negative = value < 0
        // Swift's description gives the shortest digits that round-trip, as JavaScript does.
        var text = String(describing: abs(value))
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = String(text[..<e])
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let integerPart = String(parts[0])
        let fractionPart = parts.count > 1 ? String(parts[1]) : ""
        var digits = integerPart + fractionPart
        // n: the position of the decimal point relative to the first digit.
        var n = integerPart.count + exponent
        while digits.first == "0" {
            digits.removeFirst()
            n -= 1
        }
        while digits.last == "0" { digits.removeLast() }
        if digits.isEmpty { return "0" }
        let k = digits.count
        var result: String
        if k <= n && n <= 21 {
            result = digits + String(repeating: "0", count: n - k)
        } else if 0 < n && n <= 21 {
            let index = digits.index(digits.startIndex, offsetBy: n)
            result = digits[..<index] + "." + digits[index...]
        } else if -6 < n && n <= 0 {
            result = "0." + String(repeating: "0", count: -n) + digits
        } else {
            let power = n - 1
            let mantissa = k == 1 ? digits : String(digits.prefix(1)) + "." + digits.dropFirst()
            result = mantissa + "e" + (power < 0 ? "-" : "+") + String(abs(power))
        }
        return negative ? "-" + result : result
    }
}
