/// The strings that begin with a prefix, as a range a btree index in
/// pattern order (`text_pattern_ops`, bytewise) serves: from the prefix up
/// to `upperBound`. A statement that says `LIKE $1 || '%'` cannot use that
/// index when its plan is generic (the pattern is not known when planned),
/// which every statement here is; `col ~>=~ $1 AND col ~<~ $2` can.
package enum PrefixRange {
    /// The least string greater than every string beginning with `prefix`:
    /// its last character's successor (UTF-8's byte order is code point
    /// order), past any trailing U+10FFFF. A prefix of nothing else has
    /// none; it gets one above any stored text, which holds at most 200.
    package static func upperBound(of prefix: String) -> String {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            var next = last.value + 1
            if next == 0xD800 { next = 0xE000 }  // past the surrogates, which no string holds
            if let successor = Unicode.Scalar(next) {
                scalars.append(successor)
                var result = String.UnicodeScalarView()
                result.append(contentsOf: scalars)
                return String(result)
            }
        }
        return String(repeating: "\u{10FFFF}", count: 201)
    }
}
