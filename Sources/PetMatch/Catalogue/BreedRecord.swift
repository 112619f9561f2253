import HuddleCore
import HuddlePostgres

/// A row of `breeds`.
final class BreedRecord: Identified {
    let id: Int64
    let type: String
    let name: String

    /// The columns `init(row:)` reads, in order.
    enum Column: Int, PostgresColumnList {
        case id, type, name
    }
    static let selection = PostgresColumns<Column>(alias: "b")
    /// The select list, from `b`.
    static var columns: String { selection.list }

    init(row: PostgresRow, offset: Int = 0) throws {
        let column = row.columns(Column.self, at: offset)
        id = try column[.id]
        type = try column[.type]
        name = try column[.name]
    }
}

/// A row of `pet_types` with its coats, colours and breeds.
final class PetTypeRecord: Sendable {
    let type: String
    let name: String
    let coats: [String]
    let colors: [String]
    let breeds: [BreedRecord]

    init(type: String, name: String, coats: [String], colors: [String], breeds: [BreedRecord]) {
        self.type = type
        self.name = name
        self.coats = coats
        self.colors = colors
        self.breeds = breeds
    }
}
