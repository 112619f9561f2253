-- A milestone of N days is reached on the day a run of check-ins first
-- became N long: the run's first day plus N - 1, the earliest run that long.
-- That day, not the day of the check-in that found it: a check-in can be
-- made late, or fill a gap in days long past.
CREATE FUNCTION habit_milestones_reached(habit_ids bigint[], milestones integer[])
RETURNS TABLE (habit_id bigint, days integer, reached_on date)
LANGUAGE sql STABLE AS $$
    SELECT r.habit_id, m, min(r.first_day + m - 1)
    FROM (
        SELECT c.habit_id, min(c.day) AS first_day, count(*) AS length
        FROM (SELECT c.habit_id, c.day, c.day - (row_number() OVER (PARTITION BY c.habit_id ORDER BY c.day))::int AS run
              FROM habit_check_ins c WHERE c.habit_id = ANY(habit_ids)) c
        GROUP BY c.habit_id, c.run
    ) r, unnest(milestones) AS m
    WHERE r.length >= m
    GROUP BY r.habit_id, m
$$;

-- Milestones recorded before: the day each was reached, where the
-- check-ins that reached it are still there.
UPDATE habit_milestones h SET reached_on = r.reached_on
FROM habit_milestones_reached(ARRAY(SELECT DISTINCT habit_id FROM habit_milestones), ARRAY(SELECT DISTINCT days FROM habit_milestones)) r
WHERE r.habit_id = h.habit_id AND r.days = h.days AND r.reached_on <> h.reached_on;
