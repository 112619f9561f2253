import Foundation
import GraphQL
import HuddleCore
import HuddlePostgres

/// A row of `habit_catalogue`.
final class CatalogueHabitRecord: Identified {
    let id: Int64
    let name: String
    let category: String

    /// The columns `init(row:)` reads, in order.
    enum Column: Int, PostgresColumnList {
        case id, name, category

        var expression: String? {
            switch self {
            case .id: "c.id::bigint"
            default: nil
            }
        }
    }
    static let selection = PostgresColumns<Column>(alias: "c")
    /// The select list, from `c`.
    static var columns: String { selection.list }

    init(row: PostgresRow) throws {
        let column = row.columns(Column.self)
        id = try column[.id]
        name = try column[.name]
        category = try column[.category]
    }
}

/// Reading habits and profiles: the catalogue, the time zones, a habit's
/// own fields, and users' habits as the viewer may see them.
enum HabitResolvers {
    static func bind(_ binder: inout SchemaBinder) {
        binder.rootAsync("Query", "habitCatalogue") { input in
            let rows = try await input.request.database.query("SELECT \(CatalogueHabitRecord.columns) FROM habit_catalogue c ORDER BY c.id")
            return .list(try rows.map { .object(try CatalogueHabitRecord(row: $0)) })
        }
        binder.rootAsync("Query", "timeZones") { input in
            let rows = try await input.request.database.query("SELECT name FROM time_zones ORDER BY name")
            return .list(try rows.map { .scalar(.string(try $0.decode(String.self, at: 0))) })
        }
        binder.field("CatalogueHabit", "id") { (habit: CatalogueHabitRecord) in GlobalID.value("CatalogueHabit", habit.id) }
        binder.field("CatalogueHabit", "name") { (habit: CatalogueHabitRecord) in .scalar(.string(habit.name)) }
        binder.field("CatalogueHabit", "category") { (habit: CatalogueHabitRecord) in .scalar(.enum(habit.category)) }

        binder.field("Habit", "id") { (habit: HabitRecord) in GlobalID.value("Habit", habit.id) }
        binder.field("Habit", "name") { (habit: HabitRecord) in .scalar(.string(habit.name)) }
        binder.field("Habit", "catalogueHabit") { (habit: HabitRecord, input) in
            guard let id = habit.catalogueID else { return .null }
            return input.request.habitBuddies.catalogue.load(id) { $0.map { .object($0) } ?? .null }
        }
        binder.field("Habit", "status") { (habit: HabitRecord) in .scalar(.enum(habit.status)) }
        binder.field("Habit", "owner") { (habit: HabitRecord, input) in
            input.request.loaders.users(for: input.info).load(habit.userID) { $0.map { .object($0) } ?? .null }
        }
        binder.field("Habit", "startedOn") { (habit: HabitRecord) in .scalar(.string(habit.startedOn)) }
        binder.field("Habit", "reminderTime") { (habit: HabitRecord) in habit.reminderTime.map { .scalar(.string($0)) } ?? .null }
        binder.field("Habit", "createdAt") { (habit: HabitRecord) in Instant.value(habit.createdAt) }

        binder.field("HabitProfile", "timeZone") { (profile: HabitProfileRecord) in .scalar(.string(profile.timeZone)) }
        binder.field("HabitProfile", "today") { (profile: HabitProfileRecord) in .scalar(.string(profile.today)) }
        binder.field("HabitProfile", "lookingForBuddies") { (profile: HabitProfileRecord) in .scalar(.boolean(profile.lookingForBuddies)) }
        binder.field("HabitProfile", "buddyCount") { (profile: HabitProfileRecord) in .scalar(.int(profile.buddyCount)) }
        binder.field("HabitProfile", "maxBuddies") { (_: HabitProfileRecord, input) in
            .scalar(.int(input.request.settings[HabitBuddies.maxBuddies]))
        }

        binder.field("User", "habits") { (user: UserRecord, input) in
            input.request.habitBuddies.userHabits(for: input.info).load(user.id) { .list($0.map { .object($0) }) }
        }
    }
}
