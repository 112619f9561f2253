/// Text for SQL's LIKE, matched literally: what a user searches for by
/// substring (a title, a shelter's name) may contain `%` or `_`.
package enum LikePattern {
    /// `text` with LIKE's wildcards and its escape (`\`) escaped.
    package static func escaping(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
