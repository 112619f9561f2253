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

    /// How many columns `columns` names.
    static let columnCount = 17

    static let columns = """
        p.id, p.shelter_id, p.name, p.type, p.primary_breed_id, p.secondary_breed_id, p.size, p.age_group, p.gender, p.coat, \
        p.color, p.description, p.status, p.published_at, p.status_changed_at, p.updated_at, \
        ARRAY(SELECT ph.url FROM pet_photos ph WHERE ph.pet_id = p.id ORDER BY ph.position)
        """

    init(row: PostgresRow, distanceKm: Double? = nil) throws {
        id = try row.decode(at: 0)
        shelterID = try row.decode(at: 1)
        name = try row.decode(at: 2)
        type = try row.decode(at: 3)
        primaryBreedID = try row.decode(at: 4)
        secondaryBreedID = try row.decode(at: 5)
        size = try row.decode(at: 6)
        ageGroup = try row.decode(at: 7)
        gender = try row.decode(at: 8)
        coat = try row.decode(at: 9)
        color = try row.decode(at: 10)
        description = try row.decode(at: 11)
        status = try row.decode(at: 12)
        publishedAt = try row.decode(at: 13)
        statusChangedAt = try row.decode(at: 14)
        updatedAt = try row.decode(at: 15)
        photos = try row.decode(at: 16)
        self.distanceKm = distanceKm
    }
}
