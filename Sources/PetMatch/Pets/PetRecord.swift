import Foundation
import HuddleCore
import HuddlePostgres

/// A row of `pets`, with its photos in order.
final class PetRecord: Identified {
    let id: Int64
    let shelterID: Int64
    let name: String
    let type: String
    let primaryBreedID: Int64
    let secondaryBreedID: Int64?
    let size: String
    let ageGroup: String
    let gender: String
    let coat: String?
    let color: String?
    let description: String
    let status: String
    let publishedAt: Date
    let statusChangedAt: Date
    let updatedAt: Date
    let photos: [String]
    /// Kilometres from the point a list was searched near, when it was.
    let distanceKm: Double?

    /// How many columns `columns` names: what a statement selects after them starts there.
    static var columnCount: Int { selection.count }

    /// The columns `init(row:)` reads, in order.
    enum Column: Int, PostgresColumnList {
        case id, shelterID, name, type, primaryBreedID, secondaryBreedID, size, ageGroup, gender, coat, color, description, status,
            publishedAt, statusChangedAt, updatedAt, photos

        var expression: String? {
            switch self {
            // An uploaded photo as `media:KEY`, which the field makes a path for the size asked.
            case .photos:
                "ARRAY(SELECT coalesce(ph.url, 'media:' || m.key) FROM pet_photos ph LEFT JOIN media m ON m.id = ph.media_id"
                    + " WHERE ph.pet_id = p.id ORDER BY ph.position)"
            default: nil
            }
        }
    }
    static let selection = PostgresColumns<Column>(alias: "p")
    /// The select list, from `p`.
    static var columns: String { selection.list }

    init(row: PostgresRow, distanceKm: Double? = nil) throws {
        let column = row.columns(Column.self)
        id = try column[.id]
        shelterID = try column[.shelterID]
        name = try column[.name]
        type = try column[.type]
        primaryBreedID = try column[.primaryBreedID]
        secondaryBreedID = try column[.secondaryBreedID]
        size = try column[.size]
        ageGroup = try column[.ageGroup]
        gender = try column[.gender]
        coat = try column[.coat]
        color = try column[.color]
        description = try column[.description]
        status = try column[.status]
        publishedAt = try column[.publishedAt]
        statusChangedAt = try column[.statusChangedAt]
        updatedAt = try column[.updatedAt]
        photos = try column[.photos]
        self.distanceKm = distanceKm
    }
}
