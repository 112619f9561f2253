import GraphQL
import HuddleRuntime

/// A plain list's `first` or `last` argument (not a connection's: no
/// cursors): the list whole when neither is given, which is what the
/// field answered before it took them.
package struct ListSlice: Sendable {
    /// The most either argument takes.
    package static let maxCount = 100

    package var first: Int?
    package var last: Int?

    package init(_ input: ResolverInput, maxCount: Int) throws {
        first = input.int("first")
        last = input.int("last")
        if first != nil, last != nil { throw APIError.badInput("Pass \"first\" or \"last\", not both.") }
        for (name, value) in [("first", first), ("last", last)] {
            if let value, !(0...maxCount).contains(value) {
                throw APIError.badInput("\"\(name)\" must be between 0 and \(maxCount); it is \(value).")
            }
        }
    }

    package func of<Element>(_ list: [Element]) -> [Element] {
        if let first { return Array(list.prefix(first)) }
        if let last { return Array(list.suffix(last)) }
        return list
    }
}
