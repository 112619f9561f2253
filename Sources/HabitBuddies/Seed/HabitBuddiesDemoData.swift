import HuddleCore
import HuddlePostgres
import HuddleRuntime

/// Habit Buddies' demo data: every user's profile and one to three habits
/// of the catalogue (some with one of their own, paused), check-ins from
/// each habit's start with each user's own consistency (the demo account
/// on a current streak), buddy pairs (as many as users, at most three each), weekly
/// meetings (past ones scored, the next one proposed or accepted) and the
/// milestones the streaks reached. `bench` is 20,000 users (the shared
/// 10,000 and as many more), 51,000 habits, about 3,400,000 check-ins,
/// 20,000 buddy pairs and 50,000 meetings.
enum HabitBuddiesDemoData {
    struct Shape {
        var users: Int
        /// Users from this id on have three habits, the others two (the demo scale: one to three).
        var threeHabitsFrom: Int
        /// Past meetings of every pair; every other pair has one more.
        var pastMeetingsPerPair: Int
    }

    static func shape(_ scale: DemoScale) -> Shape {
        switch scale {
        case .demo: Shape(users: scale.users, threeHabitsFrom: 1, pastMeetingsPerPair: 1)
        case .bench: Shape(users: 20_000, threeHabitsFrom: 10_001, pastMeetingsPerPair: 1)
        }
    }

    static let timeZones = [
        "America/New_York", "America/New_York", "America/New_York", "America/Chicago", "America/Los_Angeles", "Europe/London",
        "Europe/Berlin", "Europe/Madrid", "Asia/Kolkata", "Asia/Tokyo", "Australia/Sydney", "America/Sao_Paulo",
    ]
    static let ownHabits = ["Learn to juggle", "Water the plants", "Practise calligraphy", "Write a letter", "Sketch for 15 minutes"]

    static func seed(_ scale: DemoScale, users: Int, on connection: PostgresConnection) async throws -> String {
        let shape = shape(scale)
        if shape.users > users {
            // More accounts than the shared core seeds: the same password, the next ids.
            _ = try await connection.query(
                """
                INSERT INTO users (username, email, password_hash, first_name, last_name, biography)
                SELECT 'player' || i, 'player' || i || '@example.com', (SELECT password_hash FROM users WHERE id = 1),
                       (ARRAY['Ana', 'Bo', 'Chen', 'Dara', 'Eli', 'Fatima', 'Gus', 'Hana'])[1 + i % 8],
                       (ARRAY['Lima', 'Berg', 'Wu', 'Okafor', 'Novak', 'Haddad'])[1 + (i / 8) % 6], 'Forming better habits.'
                FROM generate_series($1::int, $2::int) AS i ORDER BY i
                """, [users + 1, shape.users])
        }
        try await seedHabits(shape, on: connection)
        try await seedBuddies(shape, on: connection)
        // A few words between each pair when they matched; the last one unread.
        _ = try await connection.query(
            """
            INSERT INTO buddy_messages (sender_id, recipient_id, text, sent_at, read_at)
            SELECT CASE WHEN n % 2 = 1 THEN b.first_id ELSE b.second_id END, CASE WHEN n % 2 = 1 THEN b.second_id ELSE b.first_id END,
                   t, b.matched_at + n * interval '10 minutes', CASE WHEN n < 3 THEN b.matched_at + n * interval '10 minutes' + interval '5 minutes' END
            FROM buddy_pairs b,
                 unnest(ARRAY['Hi! Glad we matched.', 'Me too. Mornings or evenings for check-ins?', 'Mornings, before work.']) WITH ORDINALITY AS m(t, n)
            """)
        _ = try await connection.query("ANALYZE habits, habit_check_ins, buddy_pairs, buddy_meetings")
        let counts = try await connection.query(
            """
            SELECT (SELECT count(*) FROM habits)::int, (SELECT count(*) FROM habit_check_ins)::int,
                   (SELECT count(*) FROM buddy_pairs)::int, (SELECT count(*) FROM buddy_meetings)::int
            """)[0]
        return
            "\(try counts.decode(Int.self, at: 0)) habits, \(try counts.decode(Int.self, at: 1)) check-ins, \(try counts.decode(Int.self, at: 2)) buddy pairs, \(try counts.decode(Int.self, at: 3)) meetings"
    }

    /// The row triggers that hold a request to the rules (HB001–HB004) look
    /// up their table once per row, which is most of the seed's time at the
    /// bench scale; the seed stands them down and checks the same rules over
    /// the whole tables afterwards (`checkRules`).
    static let ruleTriggers = [("habits", "habits_check_active"), ("habit_check_ins", "habit_check_ins_check")]

    private static func seedHabits(_ shape: Shape, on connection: PostgresConnection) async throws {
        try await DemoData.setTriggers(ruleTriggers, enabled: false, on: connection)
        _ = try await connection.query(
            """
            INSERT INTO habit_profiles (user_id, time_zone, created_at)
            SELECT u.id, CASE WHEN u.id = 1 THEN 'America/New_York' ELSE ($1::text[])[1 + floor(\(pick("u.id || ':tz'")) * array_length($1::text[], 1))::int] END,
                   now() - interval '150 days'
            FROM users u WHERE u.id <= $2
            """, [timeZones, shape.users])
        // Catalogue habits 1 + (base + 7j) % 20 for j = 1..k are distinct;
        // the demo account forms exercise, reading and meditation.
        _ = try await connection.query(
            """
            INSERT INTO habits (user_id, catalogue_id, started_on, reminder_time, created_at)
            SELECT p.user_id,
                   CASE WHEN p.user_id = 1 THEN (ARRAY[1, 10, 7])[j] ELSE 1 + (floor(\(pick("p.user_id || ':base'")) * 20)::int + 7 * j) % 20 END,
                   (now() AT TIME ZONE p.time_zone)::date - CASE WHEN p.user_id = 1 THEN 60 ELSE 30 + floor(\(pick("p.user_id || ':' || j || ':start'")) * 120)::int END,
                   CASE WHEN p.user_id = 1 AND j = 1 THEN time '08:00' WHEN \(pick("p.user_id || ':' || j || ':reminder'")) < 0.2 THEN time '20:00' END,
                   now() - interval '120 days'
            FROM habit_profiles p,
                 generate_series(1, CASE WHEN p.user_id >= $1 THEN 3 WHEN $1 = 1 THEN 1 + floor(\(pick("p.user_id || ':k'")) * 3)::int ELSE 2 END) AS j
            ORDER BY p.user_id, j
            """, [shape.threeHabitsFrom])
        _ = try await connection.query(
            """
            INSERT INTO habits (user_id, custom_name, status, started_on, created_at)
            SELECT p.user_id, ($1::text[])[1 + p.user_id % array_length($1::text[], 1)], 'PAUSED',
                   (now() AT TIME ZONE p.time_zone)::date - 40, now() - interval '40 days'
            FROM habit_profiles p WHERE p.user_id % 10 = 3 AND p.user_id <= 10000
            """, [ownHabits])
        // Each user checks in on a share of days of their own (55% to 95%);
        // the demo account has not missed one in the last twelve days. Days
        // are picked by how long ago they are, not by their date, so that a
        // seed the next day (in any user's zone) makes the same rows.
        _ = try await connection.query(
            """
            INSERT INTO habit_check_ins (habit_id, day, created_at)
            SELECT h.id, d::date, d::date + time '21:00'
            FROM habits h JOIN habit_profiles p ON p.user_id = h.user_id,
                 generate_series(h.started_on, (now() AT TIME ZONE p.time_zone)::date - 1, interval '1 day') AS d
            WHERE h.status = 'ACTIVE'
              AND ((h.user_id = 1 AND d::date >= (now() AT TIME ZONE p.time_zone)::date - 12)
                   OR \(pick("h.id || ':' || ((now() AT TIME ZONE p.time_zone)::date - d::date)")) < 0.55 + 0.4 * \(pick("h.user_id || ':consistency'")))
            """)
        try await DemoData.setTriggers(ruleTriggers, enabled: true, on: connection)
        try await checkRules(on: connection)
        _ = try await connection.query(
            """
            INSERT INTO habit_milestones (habit_id, days, reached_on)
            SELECT habit_id, days, reached_on FROM habit_milestones_reached(ARRAY(SELECT id FROM habits), $1::int[])
            """, [HabitMutations.milestones])
        _ = try await connection.query(
            """
            INSERT INTO scheduled_jobs (kind, subject_id, due_at)
            SELECT $1, h.id, habit_reminder_due(p.time_zone, h.reminder_time, now())
            FROM habits h JOIN habit_profiles p ON p.user_id = h.user_id WHERE h.status = 'ACTIVE' AND h.reminder_time IS NOT NULL
            """, [HabitReminder.kind])
    }

    /// What the stood-down triggers hold, over the whole tables at once: at
    /// most three active habits a user, and check-ins only on an active
    /// habit's days from its start to its owner's today.
    private static func checkRules(on connection: PostgresConnection) async throws {
        let broken = try await connection.query(
            """
            SELECT (SELECT count(*) FROM (SELECT user_id FROM habits WHERE status = 'ACTIVE' GROUP BY user_id HAVING count(*) > 3) x)::int,
                   (SELECT count(*) FROM habit_check_ins c JOIN habits h ON h.id = c.habit_id JOIN habit_profiles p ON p.user_id = h.user_id
                    WHERE h.status <> 'ACTIVE' OR c.day < h.started_on OR c.day > (now() AT TIME ZONE p.time_zone)::date)::int
            """)[0]
        let (users, checkIns) = (try broken.decode(Int.self, at: 0), try broken.decode(Int.self, at: 1))
        guard users == 0, checkIns == 0 else {
            throw DemoData.SeedError(
                description:
                    "Habit Buddies' seed broke its rules: \(users) users with more than 3 active habits, \(checkIns) check-ins out of a habit's days"
            )
        }
    }

    /// Pairs (i, i+1) for odd i, (i, i+2) for i ≡ 1, 2 (mod 8) and (i, i+4)
    /// for i ≡ 5, 6 (mod 8), the last two wrapping round to users 3 and 4
    /// (the demo account keeps room for one more buddy): exactly a user
    /// count's worth (users a multiple of 8), at most three each, every pair of a
    /// kind at an hour of its own so that nobody's meetings overlap; two or
    /// three weekly meetings a pair (the last one to come).
    private static func seedBuddies(_ shape: Shape, on connection: PostgresConnection) async throws {
        precondition(shape.users % 8 == 0, "the pairs wrap round a multiple of 8 users")
        _ = try await connection.query(
            """
            INSERT INTO buddy_pairs (first_id, second_id, matched_at)
            SELECT least(a, b), greatest(a, b), now() - interval '90 days' + (least(a, b) % 60) * interval '1 day' FROM (
                SELECT i AS a, i + 1 AS b FROM generate_series(1, $1::int - 1) AS i WHERE i % 2 = 1
                UNION ALL SELECT i, i + 2 FROM generate_series(1, $1::int - 2) AS i WHERE i % 8 IN (1, 2)
                UNION ALL SELECT i, CASE WHEN i + 4 <= $1::int THEN i + 4 ELSE i + 6 - $1::int END
                    FROM generate_series(1, $1::int) AS i WHERE i % 8 IN (5, 6)
            ) pairs ORDER BY 1, 2
            """, [shape.users])
        _ = try await connection.query(
            """
            INSERT INTO buddy_swipes (user_id, candidate_id, direction, swiped_at)
            SELECT first_id, second_id, 'RIGHT', matched_at FROM buddy_pairs
            UNION ALL SELECT second_id, first_id, 'RIGHT', matched_at FROM buddy_pairs
            """)
        // Past meetings (the check that a meeting starts in the future is for requests).
        try await DemoData.setTriggers([("buddy_meetings", "buddy_meetings_check")], enabled: false, on: connection)
        _ = try await connection.query(
            """
            INSERT INTO buddy_meetings (organizer_id, buddy_id, starts_at, time_zone, duration_minutes, description, status, created_at)
            SELECT CASE WHEN j % 2 = 0 THEN b.first_id ELSE b.second_id END, CASE WHEN j % 2 = 0 THEN b.second_id ELSE b.first_id END,
                   date_trunc('day', now()) + CASE WHEN j = 0 THEN interval '2 days' ELSE - j * interval '7 days' END
                     + interval '17 hours' + slot * interval '1 hour',
                   p.time_zone, 30, $2, CASE WHEN j = 0 AND b.id % 3 = 0 THEN 'PROPOSED' ELSE 'ACCEPTED' END,
                   now() - interval '100 days'
            FROM buddy_pairs b JOIN habit_profiles p ON p.user_id = b.first_id,
                 LATERAL (SELECT CASE WHEN b.second_id = b.first_id + 1 AND b.first_id % 2 = 1 THEN 0
                                      WHEN b.second_id = b.first_id + 2 THEN 1 ELSE 2 END AS slot) s,
                 generate_series(0, $1::int + (b.id % 2)::int) AS j
            ORDER BY b.id, j
            """, [shape.pastMeetingsPerPair, MeetingResolvers.templateDescription])
        try await DemoData.setTriggers([("buddy_meetings", "buddy_meetings_check")], enabled: true, on: connection)
        _ = try await connection.query(
            """
            INSERT INTO meeting_checklist_items (meeting_id, position, text, checked_by, checked_at)
            SELECT m.id, n, t, CASE WHEN m.starts_at < now() THEN m.organizer_id END, CASE WHEN m.starts_at < now() THEN m.starts_at END
            FROM buddy_meetings m, unnest($1::text[]) WITH ORDINALITY AS c(t, n)
            """, [MeetingResolvers.template])
        _ = try await connection.query(
            """
            INSERT INTO buddy_scores (meeting_id, scorer_id, scored_id, score, comment, created_at)
            SELECT m.id, x.scorer, x.scored, 2 + floor(\(pick("m.id || ':' || x.scorer")) * 4)::int, '',
                   m.starts_at + interval '40 minutes'
            FROM buddy_meetings m, LATERAL (VALUES (m.organizer_id, m.buddy_id), (m.buddy_id, m.organizer_id)) AS x(scorer, scored)
            WHERE m.starts_at < now() - interval '1 hour'
            """)
        _ = try await connection.query(
            """
            INSERT INTO scheduled_jobs (kind, subject_id, due_at)
            SELECT $1, m.id, m.starts_at - interval '15 minutes' FROM buddy_meetings m WHERE m.status = 'ACCEPTED' AND m.starts_at > now()
            """, [MeetingReminder.kind])
    }

    private static func pick(_ key: String) -> String { DemoData.pick(key) }
}
