/// "Did you mean ...?" hints, chosen and worded as graphql-js chooses and
/// words them, so that error messages match to the letter.
public enum Suggestions {
    static let maximum = 5

    /// Whether messages leave their suggestions out, within the task that
    /// sets it: a server whose schema is not public hides the names a
    /// suggestion would give away (graphql-js 17's `hideSuggestions`).
    @TaskLocal public static var areHidden = false

    /// ` Did you mean "a", "b", or "c"?`, or nothing when there is nothing to suggest.
    static func didYouMean(_ suggestions: [String], subject: String? = nil) -> String {
        guard !suggestions.isEmpty, !areHidden else { return "" }
        var message = " Did you mean "
        if let subject { message += subject + " " }
        let quoted = suggestions.map { "\"\($0)\"" }
        switch quoted.count {
        case 1:
            return message + quoted[0] + "?"
        case 2:
            return message + quoted[0] + " or " + quoted[1] + "?"
        default:
            let selected = quoted.prefix(maximum)
            return message + selected.dropLast().joined(separator: ", ") + ", or " + selected.last! + "?"
        }
    }

    /// The options within an edit distance of 40% of the input's length,
    /// closest first, ties in natural order.
    static func list(for input: String, from options: some Sequence<String>) -> [String] {
        let distance = LexicalDistance(input)
        let threshold = input.utf16.count * 2 / 5 + 1
        var found: [(option: String, distance: Int)] = []
        var seen: Set<String> = []
        for option in options where seen.insert(option).inserted {
            if let measured = distance.measure(option, threshold: threshold) {
                found.append((option, measured))
            }
        }
        return found.sorted {
            $0.distance != $1.distance ? $0.distance < $1.distance : naturalOrder($0.option, $1.option) < 0
        }.map(\.option)
    }

    /// Compares strings with runs of digits compared as numbers.
    static func naturalOrder(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf16), b = Array(b.utf16)
        var i = 0, j = 0
        func isDigit(_ code: UInt16?) -> Bool { code.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
        while i < a.count && j < b.count {
            var aChar: UInt16? = a[i], bChar: UInt16? = b[j]
            if isDigit(aChar) && isDigit(bChar) {
                var aNumber = 0
                repeat {
                    i += 1
                    aNumber = aNumber * 10 + Int(aChar! - 0x30)
                    aChar = i < a.count ? a[i] : nil
                } while isDigit(aChar) && aNumber > 0
                var bNumber = 0
                repeat {
                    j += 1
                    bNumber = bNumber * 10 + Int(bChar! - 0x30)
                    bChar = j < b.count ? b[j] : nil
                } while isDigit(bChar) && bNumber > 0
                if aNumber != bNumber { return aNumber < bNumber ? -1 : 1 }
            } else {
                if aChar! != bChar! { return aChar! < bChar! ? -1 : 1 }
                i += 1
                j += 1
            }
        }
        return a.count - b.count
    }

    /// Damerau-Levenshtein distance (optimal string alignment) ignoring case,
    /// where a change of case alone counts as one edit.
    struct LexicalDistance {
        let input: String
        let inputLowercased: String
        let inputCodes: [UInt16]

        init(_ input: String) {
            self.input = input
            inputLowercased = input.lowercased()
            inputCodes = Array(inputLowercased.utf16)
        }

        func measure(_ option: String, threshold: Int) -> Int? {
            if input == option { return 0 }
            let optionLowercased = option.lowercased()
            if inputLowercased == optionLowercased { return 1 }
            var a = Array(optionLowercased.utf16)
            var b = inputCodes
            if a.count < b.count { swap(&a, &b) }
            if a.count - b.count > threshold { return nil }
            var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: 3)
            for j in 0...b.count { rows[0][j] = j }
            if a.isEmpty { return b.count <= threshold ? b.count : nil }
            for i in 1...a.count {
                let up = (i - 1) % 3, current = i % 3
                rows[current][0] = i
                var smallest = i
                if b.count > 0 {
                    for j in 1...b.count {
                        let cost = a[i - 1] == b[j - 1] ? 0 : 1
                        var cell = min(rows[up][j] + 1, rows[current][j - 1] + 1, rows[up][j - 1] + cost)
                        if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                            cell = min(cell, rows[(i - 2) % 3][j - 2] + 1)
                        }
                        smallest = min(smallest, cell)
                        rows[current][j] = cell
                    }
                }
                if smallest > threshold { return nil }
            }
            let distance = rows[a.count % 3][b.count]
            return distance <= threshold ? distance : nil
        }
    }
}
