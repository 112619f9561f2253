/// A sport as a notice writes it: `TABLE_TENNIS` is "table tennis", with
/// "a" or "an" before it as English asks.
struct SportName {
    let text: String

    init(_ sport: String) {
        text = sport.lowercased().replacingOccurrences(of: "_", with: " ")
    }

    var withArticle: String {
        guard let first = text.first else { return text }
        return ("aeiou".contains(first) ? "an " : "a ") + text
    }
}
