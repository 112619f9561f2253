-- Habit Buddies' dashboard (scripts/bench/habit-dashboard) as one
-- hand-written statement that builds the response JSON in PostgreSQL, the
-- way Hasura and PostGraphile compile a whole GraphQL query: the baseline
-- Huddle is measured against. The viewer is :viewer (pgbench -D
-- viewer=N): their profile, their habits with streaks, check-ins, the
-- 30-day completion rate and milestones, their buddies with the buddies'
-- habits and streaks, and their next meeting. Ids and instants are
-- written as the API writes them (unpadded base64 for these ids, ISO 8601 in
-- UTC; the colons of the format are \x3A, or pgbench would take :MI for a variable).
WITH p AS (
    SELECT p.user_id, p.time_zone, (now() AT TIME ZONE p.time_zone)::date AS today FROM habit_profiles p WHERE p.user_id = :viewer
), b AS (
    SELECT bp.id, bp.matched_at, CASE WHEN bp.first_id = p.user_id THEN bp.second_id ELSE bp.first_id END AS buddy
    FROM p JOIN buddy_pairs bp ON bp.first_id = p.user_id OR bp.second_id = p.user_id
), m AS (
    SELECT m.* FROM p CROSS JOIN LATERAL (
        SELECT * FROM buddy_meetings m
        WHERE p.user_id IN (m.organizer_id, m.buddy_id) AND m.status IN ('PROPOSED', 'ACCEPTED')
          AND m.starts_at + m.duration_minutes * interval '1 minute' > now()
        ORDER BY m.starts_at, m.id LIMIT 1) m
)
SELECT json_build_object('data', json_build_object('habitDashboard', json_build_object(
    'profile', (SELECT json_build_object('timeZone', p.time_zone, 'today', p.today,
                                         'buddyCount', (SELECT count(*) FROM b)) FROM p),
    'habits', coalesce((
        SELECT json_agg(json_build_object(
            'id', rtrim(encode(convert_to('Habit:' || h.id, 'UTF8'), 'base64'), '='), 'name', coalesce(c.name, h.custom_name),
            'status', h.status, 'startedOn', h.started_on, 'currentStreak', s.current_streak,
            'longestStreak', s.longest_streak, 'checkInCount', s.total, 'lastCheckIn', s.last_day,
            'checkedInToday', s.last_day IS NOT DISTINCT FROM p.today,
            'completionRate', (SELECT count(*)::float8 / (p.today - greatest(p.today - 29, h.started_on) + 1)
                               FROM habit_check_ins ci
                               WHERE ci.habit_id = h.id AND ci.day BETWEEN greatest(p.today - 29, h.started_on) AND p.today),
            'milestones', coalesce((SELECT json_agg(json_build_object('days', ms.days, 'reachedOn', ms.reached_on) ORDER BY ms.days)
                                    FROM habit_milestones ms WHERE ms.habit_id = h.id), '[]'))
            ORDER BY h.status, h.created_at, h.id)
        FROM p JOIN habits h ON h.user_id = p.user_id AND h.status <> 'ARCHIVED'
        LEFT JOIN habit_catalogue c ON c.id = h.catalogue_id
        CROSS JOIN LATERAL habit_streaks(ARRAY[h.id]) s), '[]'),
    'buddies', coalesce((
        SELECT json_agg(json_build_object(
            'since', to_char(b.matched_at AT TIME ZONE 'UTC', E'YYYY-MM-DD"T"HH24\x3AMI\x3ASS.MS"Z"'), 'user', json_build_object('id', rtrim(encode(convert_to('User:' || u.id, 'UTF8'), 'base64'), '='), 'username', u.username),
            'habits', coalesce((
                SELECT json_agg(json_build_object('name', coalesce(c.name, h.custom_name), 'currentStreak', s.current_streak,
                                                  'checkedInToday', s.last_day IS NOT DISTINCT FROM (now() AT TIME ZONE bp.time_zone)::date)
                                ORDER BY h.status, h.created_at, h.id)
                FROM habits h JOIN habit_profiles bp ON bp.user_id = h.user_id LEFT JOIN habit_catalogue c ON c.id = h.catalogue_id
                CROSS JOIN LATERAL habit_streaks(ARRAY[h.id]) s
                WHERE h.user_id = b.buddy AND h.status <> 'ARCHIVED'), '[]'))
            ORDER BY b.matched_at, b.id)
        FROM b JOIN users u ON u.id = b.buddy), '[]'),
    'nextMeeting', (
        SELECT json_build_object('id', rtrim(encode(convert_to('Meeting:' || m.id, 'UTF8'), 'base64'), '='), 'startsAt', to_char(m.starts_at AT TIME ZONE 'UTC', E'YYYY-MM-DD"T"HH24\x3AMI\x3ASS.MS"Z"'),
            'endsAt', to_char((m.starts_at + m.duration_minutes * interval '1 minute') AT TIME ZONE 'UTC', E'YYYY-MM-DD"T"HH24\x3AMI\x3ASS.MS"Z"'), 'timeZone', m.time_zone, 'status', m.status,
            'organizer', (SELECT json_build_object('username', u.username) FROM users u WHERE u.id = m.organizer_id),
            'invitee', (SELECT json_build_object('username', u.username) FROM users u WHERE u.id = m.buddy_id))
        FROM m))));
