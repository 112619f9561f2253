import GraphQL
import HuddleCore
import HuddlePostgres

extension NotificationKind {
    static let favoritePetStatusChanged = NotificationKind(rawValue: "FAVORITE_PET_STATUS_CHANGED")
    static let favoritePetUpdated = NotificationKind(rawValue: "FAVORITE_PET_UPDATED")
}

/// A change to a favourite pet, as `favoritePetUpdated` delivers it.
struct FavoritePetUpdate: Sendable {
    var petID: Int64
    var notice: NotificationRecord
}

/// petMatch's part of the inbox: notices about favourite pets, and the
/// subscription that delivers them live (the same inbox path as the other
/// apps': NOTIFY from whichever process made the change, caught up with `after`).
enum PetMatchInbox {
    static let kinds: [NotificationKind] = [.favoritePetStatusChanged, .favoritePetUpdated]

    static func bind(_ binder: inout SchemaBinder) {
        binder.field("Notification", "pet") { (notice: NotificationRecord, input) in
            guard let pet = notice.reference(to: "Pet") else { return .null }
            return input.request.petMatch.pets.load(pet) { $0.map { .object($0) } ?? .null }
        }
        SubscriptionResolvers.inbox(&binder, "favoritePetUpdated", kinds: kinds) { notice, _ in
            notice.reference(to: "Pet").map { FavoritePetUpdate(petID: $0, notice: notice) }
        }
        binder.field("FavoritePetUpdate", "pet") { (update: FavoritePetUpdate, input) in
            input.request.petMatch.pets.load(update.petID) { $0.map { .object($0) } ?? .null }
        }
        binder.field("FavoritePetUpdate", "kind") { (update: FavoritePetUpdate) in .scalar(.enum(update.notice.kind)) }
        binder.field("FavoritePetUpdate", "notification") { (update: FavoritePetUpdate) in .object(update.notice) }
    }
}
