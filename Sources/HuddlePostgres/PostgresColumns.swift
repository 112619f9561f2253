/// The columns a record reads, declared once: the cases of an enum, in the
/// order a statement selects them. The select list, the count and where
/// each column is in a row all come from the cases, and a record reads a
/// column by its case, never by a number, so two columns cannot trade
/// places and a count cannot fall behind.
///
///     enum Column: Int, PostgresColumnList { case id, ownerID, title }
///     static let columns = PostgresColumns<Column>(alias: "p")  // "p.id, p.owner_id, p.title"
///     init(row: PostgresRow) throws {
///         let column = row.columns(Column.self)
///         id = try column[.id]
///
/// A case's name in SQL is its Swift name in snake case (`ownerID` is
/// `owner_id`); a column that is an expression says so in `expression`,
/// and is selected `AS` its name, so that every column of a result is named
/// as declared (which the tests compare with what PostgreSQL names them).
public protocol PostgresColumnList: RawRepresentable<Int>, CaseIterable, Sendable {
    /// The SQL of the column when it is not `ALIAS.name`: an expression, or
    /// another table's column, written with its own alias.
    var expression: String? { get }
}

extension PostgresColumnList {
    public var expression: String? { nil }

    /// Its name in SQL: the case's name in snake case, a run of capitals
    /// one word (`profileImageURL` is `profile_image_url`).
    public var name: String { PostgresColumnNames.snakeCase(String(describing: self)) }
}

/// A record's columns as one statement selects them.
public struct PostgresColumns<Column: PostgresColumnList>: Sendable {
    /// The alias of the table the plain columns are read from.
    public let alias: String
    /// The columns' names, in order: what the result calls them.
    public let names: [String]
    /// The select list: `p.id, p.owner_id, …`, an expression `AS` its name.
    public let list: String

    /// How many columns the list has: where what a statement selects after them starts.
    public var count: Int { names.count }

    public init(alias: String) {
        let cases = Array(Column.allCases)
        precondition(
            cases.enumerated().allSatisfy { $0.offset == $0.element.rawValue },
            "\(Column.self)'s cases must be numbered 0, 1, 2, … in order")
        self.alias = alias
        names = cases.map(\.name)
        list = cases.map { column in column.expression.map { "\($0) AS \(column.name)" } ?? "\(alias).\(column.name)" }
            .joined(separator: ", ")
    }

    /// The same columns read from `source`, a subquery or a CTE that selected `list`.
    public func list(from source: String) -> String {
        names.map { "\(source).\($0)" }.joined(separator: ", ")
    }

    /// The columns each selected as `sql(column)`, `AS` its name: one
    /// shape that several statements fill each in their own way.
    public static func list(_ sql: (Column) -> String) -> String {
        Column.allCases.map { "\(sql($0)) AS \($0.name)" }.joined(separator: ", ")
    }
}

/// Naming of declared columns.
public enum PostgresColumnNames {
    /// `ownerID` → `owner_id`, `profileImageURL` → `profile_image_url`, `playerIDs` → `player_ids`, `is_private` unchanged.
    public static func snakeCase(_ name: String) -> String {
        let characters = Array(name)
        var result = ""
        for (index, character) in characters.enumerated() {
            if character.isUppercase {
                let previous = index > 0 ? characters[index - 1] : nil
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                // A new word starts at a capital after a lower-case letter or
                // a digit, or at the last capital of a run followed by lower
                // case, unless that is a plural's s (`playerIDs` is `player_ids`).
                let pluralFollows =
                    next == "s" && (index + 2 == characters.count || characters[index + 2].isUppercase)
                if let previous,
                    previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true && !pluralFollows)
                {
                    result.append("_")
                }
                result.append(contentsOf: character.lowercased())
            } else {
                result.append(character)
            }
        }
        return result
    }
}

/// A row's columns of one declaration, from where they start in it.
public struct PostgresColumnReader<Column: PostgresColumnList>: Sendable {
    public let row: PostgresRow

    @usableFromInline
    init(row: PostgresRow) {
        self.row = row
    }

    /// The value of `column`.
    @inlinable
    public subscript<T: PostgresDecodable>(_ column: Column) -> T {
        get throws { try row.decode(at: column.rawValue) }
    }

    /// The row from the column after the last of this declaration: what a
    /// statement selected next.
    public var rest: PostgresRow { row.shifted(by: Column.allCases.count) }
}

extension PostgresRow {
    /// The columns of `Column` in this row, starting at its column `offset`.
    @inlinable
    public func columns<Column: PostgresColumnList>(_: Column.Type, at offset: Int = 0) -> PostgresColumnReader<Column> {
        PostgresColumnReader(row: offset == 0 ? self : shifted(by: offset))
    }
}
