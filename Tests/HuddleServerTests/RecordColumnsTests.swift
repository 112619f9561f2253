import Foundation
import HuddleCore
import HuddlePostgres
import HuddleRuntime
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

@testable import HabitBuddies
@testable import PetMatch
@testable import Playmate
@testable import Prolific

/// Every record's columns as declared against what PostgreSQL says its
/// statement selects: the names, in order (`LIMIT 0`, nothing read), and a
/// row of the demo data decoded by the record itself, each column into the
/// Swift type it is read as, so a column whose type changed is found here
/// rather than by a user.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct RecordColumnsTests {
    struct Declaration: Sendable {
        var record: String
        var names: [String]
        /// A statement selecting the declared columns first.
        var sql: String
        var parameters: [any PostgresEncodable & Sendable] = []
        /// Reads a row as the record does.
        var decode: @Sendable (PostgresRow) throws -> Void
    }

    static let declarations: [Declaration] = [
        Declaration(record: "UserRecord", names: UserRecord.selection.names, sql: "SELECT \(UserRecord.columns) FROM users u") {
            let user = try UserRecord(row: $0)
            _ = (try user.email, try user.birthday, try user.gender, try user.biography, try user.profileImageURL)
            _ = (try user.homeLatitude, try user.homeLongitude, try user.createdAt, try user.timeZone)
        },
        Declaration(
            record: "BuddyMessageRecord", names: BuddyMessageRecord.selection.names,
            sql: "SELECT \(BuddyMessageRecord.columns) FROM buddy_messages m"
        ) { _ = try BuddyMessageRecord(row: $0) },
        Declaration(record: "PlaceRecord", names: PlaceRecord.selection.names, sql: "SELECT \(PlaceRecord.columns) FROM places p") {
            _ = try PlaceRecord(row: $0)
        },
        Declaration(record: "UserRecord names", names: UserRecord.nameSelection.names, sql: "SELECT \(UserRecord.nameColumns) FROM users u")
        {
            _ = try UserRecord(namesFrom: $0)
        },
        Declaration(
            record: "FriendRequestRecord", names: FriendRequestRecord.selection.names,
            sql: "SELECT \(FriendRequestRecord.columns) FROM friend_requests r"
        ) { _ = try FriendRequestRecord(row: $0) },
        Declaration(
            record: "NotificationRecord", names: NotificationRecord.selection.names,
            sql: "SELECT \(NotificationRecord.columns) FROM notifications n"
        ) { _ = try NotificationRecord(row: $0) },
        Declaration(
            record: "SessionRecord", names: SessionRecord.selection.names, sql: "SELECT \(SessionRecord.columns) FROM sports_sessions s"
        ) {
            _ = try SessionRecord(row: $0)
        },
        Declaration(
            record: "LocationRecord", names: LocationRecord.selection.names, sql: "SELECT \(LocationRecord.columns) FROM locations l"
        ) {
            _ = try LocationRecord(row: $0)
        },
        Declaration(
            record: "InvitationRecord", names: InvitationRecord.selection.names,
            sql: "SELECT \(InvitationRecord.columns) FROM invitations i"
        ) { _ = try InvitationRecord(row: $0) },
        Declaration(record: "QuizRecord", names: QuizRecord.selection.names, sql: "SELECT \(QuizRecord.columns) FROM quiz_results q") {
            _ = try QuizRecord(row: $0)
        },
        Declaration(record: "ProjectRecord", names: ProjectRecord.selection.names, sql: "SELECT \(ProjectRecord.columns) FROM projects p") {
            _ = try ProjectRecord(row: $0)
        },
        Declaration(record: "RoundRecord", names: RoundRecord.selection.names, sql: "SELECT \(RoundRecord.columns) FROM rounds r") {
            _ = try RoundRecord(row: $0)
        },
        Declaration(record: "SnippetRecord", names: SnippetRecord.selection.names, sql: "SELECT \(SnippetRecord.columns) FROM snippets s") {
            _ = try SnippetRecord(row: $0)
        },
        Declaration(
            record: "WriterRecord", names: WriterRecord.selection.names, sql: "SELECT \(WriterRecord.columns) FROM prolific_writers w"
        ) { _ = try WriterRecord(row: $0) },
        // The counted snippet's shape, as the page of snippets selects it.
        Declaration(
            record: "counted snippet",
            names: SnippetRecord.selection.names + PostgresColumns<SnippetCounting.CountColumn>(alias: "").names
                + UserRecord.selection.names,
            sql: SnippetCounting.page(where: "s.id <> ALL($1::bigint[])"),
            parameters: [[Int64](), Int64?.none]
        ) { row in
            _ = try SnippetCounting.snippet(row)
            _ = try UserRecord(row: row, offset: SnippetCounting.userOffset)
        },
        Declaration(record: "PetRecord", names: PetRecord.selection.names, sql: "SELECT \(PetRecord.columns) FROM pets p") {
            _ = try PetRecord(row: $0)
        },
        Declaration(record: "BreedRecord", names: BreedRecord.selection.names, sql: "SELECT \(BreedRecord.columns) FROM breeds b") {
            _ = try BreedRecord(row: $0)
        },
        Declaration(record: "ShelterRecord", names: ShelterRecord.selection.names, sql: "SELECT \(ShelterRecord.columns) FROM shelters s") {
            _ = try ShelterRecord(row: $0)
        },
        Declaration(
            record: "PreferencesRecord", names: PreferencesRecord.selection.names, sql: PreferencesRecord.select,
            parameters: [[Int64](1...50)]
        ) { _ = try PreferencesRecord(row: $0) },
        Declaration(
            record: "CatalogueHabitRecord", names: CatalogueHabitRecord.selection.names,
            sql: "SELECT \(CatalogueHabitRecord.columns) FROM habit_catalogue c"
        ) { _ = try CatalogueHabitRecord(row: $0) },
        Declaration(record: "HabitRecord", names: HabitRecord.selection.names, sql: "SELECT \(HabitRecord.columns) \(HabitRecord.from)") {
            _ = try HabitRecord(row: $0)
        },
        Declaration(
            record: "HabitProgress", names: HabitProgress.selection.names,
            sql: "SELECT \(HabitProgress.columns) FROM habits h JOIN habit_profiles p ON p.user_id = h.user_id"
        ) { _ = try HabitProgress(row: $0) },
        Declaration(
            record: "HabitProfileRecord", names: HabitProfileRecord.selection.names,
            sql: "SELECT \(HabitProfileRecord.columns) FROM habit_profiles p"
        ) { _ = try HabitProfileRecord(row: $0) },
        Declaration(
            record: "MeetingRecord", names: MeetingRecord.selection.names, sql: "SELECT \(MeetingRecord.columns) FROM buddy_meetings m"
        ) {
            _ = try MeetingRecord(row: $0)
        },
        Declaration(
            record: "ChecklistItemRecord", names: ChecklistItemRecord.selection.names,
            sql: "SELECT \(ChecklistItemRecord.columns) FROM meeting_checklist_items i"
        ) { _ = try ChecklistItemRecord(row: $0) },
        Declaration(
            record: "BuddyScoreRecord", names: BuddyScoreRecord.selection.names,
            sql: "SELECT \(BuddyScoreRecord.columns) FROM buddy_scores s"
        ) { _ = try BuddyScoreRecord(row: $0) },
    ]

    /// One database of demo data for every declaration: seeding is the slow part.
    @Test func declaredColumnsAreWhatTheStatementsSelect() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let seeded = try HuddleCommand.run(["seed"], environment: ["DATABASE_URL": url])
            #expect(seeded.status == 0, "\(seeded.standardError)")
            let running = RunningLoop()
            let pool = PostgresPool(TestDatabase.configuration(url: url), on: running.loop)
            var decoded = 0
            for declaration in Self.declarations {
                let described = try await pool.query("SELECT * FROM (\(declaration.sql)) declared LIMIT 0", declaration.parameters)
                #expect(
                    Array(described.columnNames.prefix(declaration.names.count)) == declaration.names, "\(declaration.record)")
                let rows = try await pool.query("SELECT * FROM (\(declaration.sql)) declared LIMIT 20", declaration.parameters)
                for row in rows {
                    do {
                        try declaration.decode(row)
                        decoded += 1
                    } catch {
                        Issue.record("\(declaration.record): \(error)")
                    }
                }
            }
            // The demo data has rows for nearly every record.
            #expect(decoded > 300)
            await pool.close()
            await running.stop()
        }
    }

    @Test func namesAreTheCasesInSnakeCase() {
        #expect(PostgresColumnNames.snakeCase("ownerID") == "owner_id")
        #expect(PostgresColumnNames.snakeCase("profileImageURL") == "profile_image_url")
        #expect(PostgresColumnNames.snakeCase("playerIDs") == "player_ids")
        #expect(PostgresColumnNames.snakeCase("lastActivityAt") == "last_activity_at")
        #expect(PostgresColumnNames.snakeCase("is_private") == "is_private")
        #expect(PostgresColumnNames.snakeCase("id") == "id")
        #expect(PostgresColumnNames.snakeCase("URLs") == "urls")
    }
}
