-- A user's own time zone (an IANA name, checked by the API against the
-- server's tz database), which notices write their times in. Null until
-- they set it; then their quiet hours' zone, else UTC, said as such.
ALTER TABLE users ADD COLUMN time_zone text CHECK (length(time_zone) BETWEEN 1 AND 64);

CREATE FUNCTION reader_time_zone(reader bigint) RETURNS text LANGUAGE sql STABLE AS $$
    SELECT coalesce((SELECT u.time_zone FROM users u WHERE u.id = reader),
                    (SELECT q.time_zone FROM quiet_hours q WHERE q.user_id = reader), 'UTC')
$$;

-- A moment as a notice writes it for a reader in `zone`: "on Sat 28 Nov at
-- 18:30", with the year when it is not this one; "(UTC)" after it when the
-- zone is UTC, which may only mean the reader never said theirs. Never
-- "today" or "tomorrow": a notice is kept, and read or pushed later.
CREATE FUNCTION reader_time(at timestamptz, zone text) RETURNS text LANGUAGE sql STABLE AS $$
    SELECT 'on ' || to_char(at AT TIME ZONE zone,
               CASE WHEN extract(year FROM at AT TIME ZONE zone) = extract(year FROM now() AT TIME ZONE zone)
                    THEN 'Dy FMDD Mon' ELSE 'Dy FMDD Mon YYYY' END)
           || ' at ' || to_char(at AT TIME ZONE zone, 'HH24:MI') || CASE WHEN zone = 'UTC' THEN ' (UTC)' ELSE '' END
$$;
