import HuddleCore
import HuddlePostgres

/// A row of `breeds`.
final class BreedRecord: Identified {
    let id: Int64
    let type: String
    let name: String

    static let columns = "b.id, b.type, b.name"

    init(row: PostgresRow, offset: Int = 0) throws {
        id = try row.decode(at: offset)
        type = try row.decode(at: offset + 1)
        name = try row.decode(at: offset + 2)
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
