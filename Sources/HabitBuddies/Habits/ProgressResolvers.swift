import Foundation
import GraphQL
import HuddleCore

/// A habit's progress: streaks, completion over a range, a month's calendar
/// and milestones, each through a loader (a list of habits costs one
/// statement per field, whatever its length).
enum ProgressResolvers {
    static func bind(_ binder: inout SchemaBinder) {
        func progress(_ name: String, _ value: @escaping @Sendable (HabitProgress, HabitRecord) -> Resolved) {
            binder.field("Habit", name) { (habit: HabitRecord, input) in
                input.request.habitBuddies.progress.load(habit.id) { value($0, habit) }
            }
        }
        progress("currentStreak") { progress, _ in .scalar(.int(progress.currentStreak)) }
        progress("longestStreak") { progress, _ in .scalar(.int(progress.longestStreak)) }
        progress("checkInCount") { progress, _ in .scalar(.int(progress.checkInCount)) }
        progress("lastCheckIn") { progress, _ in progress.lastCheckIn.map { .scalar(.string($0)) } ?? .null }
        progress("checkedInToday") { progress, habit in .scalar(.boolean(progress.lastCheckIn == habit.today)) }

        binder.field("Habit", "completionRate") { (habit: HabitRecord, input) in
            let range = HabitRange(habit: habit.id, from: input.string("from"), to: input.string("to"))
            if let from = range.from, let to = range.to, from > to {
                throw APIError.badInput("\"from\" must not be after \"to\".")
            }
            return input.request.habitBuddies.completionRates.load(range) { .scalar(.float($0)) }
        }
        binder.field("Habit", "calendar") { (habit: HabitRecord, input) in
            input.request.habitBuddies.calendars.load(HabitMonth(habit: habit.id, month: input.string("month"))) {
                .list($0.map { .object($0) })
            }
        }
        binder.field("Habit", "milestones") { (habit: HabitRecord, input) in
            input.request.habitBuddies.milestones.load(habit.id) { .list($0.map { .object($0) }) }
        }
        binder.field("HabitDay", "date") { (day: HabitDay) in .scalar(.string(day.date)) }
        binder.field("HabitDay", "done") { (day: HabitDay) in .scalar(.boolean(day.done)) }
        binder.field("HabitDay", "isFuture") { (day: HabitDay) in .scalar(.boolean(day.isFuture)) }
        binder.field("HabitDay", "isBeforeStart") { (day: HabitDay) in .scalar(.boolean(day.isBeforeStart)) }
        binder.field("HabitMilestone", "days") { (milestone: HabitMilestone) in .scalar(.int(milestone.days)) }
        binder.field("HabitMilestone", "reachedOn") { (milestone: HabitMilestone) in .scalar(.string(milestone.reachedOn)) }
    }
}
