-- Habit Buddies: accountability buddies who form habits together. A user's
-- habit profile holds their time zone (a name of PostgreSQL's tz database);
-- their habits come from the catalogue or are their own ("Other"), at most
-- three active at once; a check-in is a calendar date in their time zone,
-- never a future one. Right swipes both ways make a buddy pair, once, within
-- a cap per user; buddies meet for at most 30 minutes, and nobody is in two
-- meetings at once (an exclusion constraint over each person's attendance).
-- The rules live here as well as in the resolvers; errors raised here carry
-- the SQLSTATEs HB001-HB010, which the API turns into answers.

CREATE EXTENSION IF NOT EXISTS btree_gist;

-- The tz database's zone names as this server knows them when migrated
-- (IANA names, not abbreviations or POSIX rules), for the foreign keys:
-- reading pg_timezone_names reads the zone files, too slow for each write.
CREATE TABLE time_zones (
    name text PRIMARY KEY
);
INSERT INTO time_zones (name)
SELECT name FROM pg_timezone_names
WHERE name !~ '^(posix|right)/' AND name NOT IN ('posixrules', 'Factory', 'localtime')
ON CONFLICT DO NOTHING;

-- The drop-down list of the first-time screen.
CREATE TABLE habit_catalogue (
    id integer PRIMARY KEY,
    name text NOT NULL UNIQUE CHECK (char_length(name) BETWEEN 1 AND 80),
    category text NOT NULL CHECK (category IN ('HEALTH', 'MIND', 'LEARNING', 'WORK', 'MONEY', 'HOME', 'SOCIAL'))
);
INSERT INTO habit_catalogue (id, name, category) VALUES
    (1, 'Exercise for 30 minutes', 'HEALTH'), (2, 'Walk 10,000 steps', 'HEALTH'), (3, 'Drink 2 litres of water', 'HEALTH'),
    (4, 'Stretch or do yoga', 'HEALTH'), (5, 'In bed by 11 pm', 'HEALTH'), (6, 'Eat a vegetable with every meal', 'HEALTH'),
    (7, 'Meditate for 10 minutes', 'MIND'), (8, 'Write in a journal', 'MIND'), (9, 'No phone for the first hour', 'MIND'),
    (10, 'Read 20 pages', 'LEARNING'), (11, 'Practise a language', 'LEARNING'), (12, 'Practise an instrument', 'LEARNING'),
    (13, 'Code for an hour', 'LEARNING'), (14, 'Deep work before noon', 'WORK'), (15, 'Plan tomorrow tonight', 'WORK'),
    (16, 'No-spend day', 'MONEY'), (17, 'Track every expense', 'MONEY'), (18, 'Cook at home', 'HOME'),
    (19, 'Tidy for 15 minutes', 'HOME'), (20, 'Call a friend or family member', 'SOCIAL');

-- A user's side of Habit Buddies, made at their first habit.
CREATE TABLE habit_profiles (
    user_id bigint PRIMARY KEY REFERENCES users ON DELETE CASCADE,
    time_zone text NOT NULL REFERENCES time_zones,
    -- Shown to others in "Find a buddy".
    looking_for_buddies boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE habits (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id bigint NOT NULL REFERENCES habit_profiles ON DELETE CASCADE,
    catalogue_id integer REFERENCES habit_catalogue,
    custom_name text CHECK (char_length(btrim(custom_name)) BETWEEN 1 AND 80),
    -- What makes two users' habits the same one, for finding buddies.
    match_key text GENERATED ALWAYS AS (coalesce('c' || catalogue_id::text, 'o:' || lower(btrim(custom_name)))) STORED,
    status text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'PAUSED', 'ARCHIVED')),
    -- The first day that can be checked in, in the owner's time zone.
    started_on date NOT NULL,
    -- The daily reminder, a wall-clock time in the owner's time zone.
    reminder_time time(0),
    -- The owner's date of the last reminder sent: at most one a day.
    last_reminded_on date,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK ((catalogue_id IS NULL) <> (custom_name IS NULL))
);
CREATE UNIQUE INDEX habits_one_of_each ON habits (user_id, match_key) WHERE status <> 'ARCHIVED';
CREATE INDEX habits_user ON habits (user_id, id);
CREATE INDEX habits_active_by_key ON habits (match_key, user_id) WHERE status = 'ACTIVE';

-- At most three active habits (HB001). Taking the profile's row first
-- makes two at once wait for each other, so the count sees both.
CREATE FUNCTION habits_check_active() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status = 'ACTIVE' AND (TG_OP = 'INSERT' OR OLD.status <> 'ACTIVE') THEN
        PERFORM 1 FROM habit_profiles WHERE user_id = NEW.user_id FOR NO KEY UPDATE;
        IF (SELECT count(*) FROM habits WHERE user_id = NEW.user_id AND status = 'ACTIVE' AND id <> NEW.id) >= 3 THEN
            RAISE EXCEPTION 'a user has at most 3 active habits' USING ERRCODE = 'HB001';
        END IF;
    END IF;
    IF TG_OP = 'UPDATE' AND NEW.user_id <> OLD.user_id THEN
        RAISE EXCEPTION 'a habit stays with its owner' USING ERRCODE = 'HB010';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER habits_check_active BEFORE INSERT OR UPDATE ON habits
    FOR EACH ROW EXECUTE FUNCTION habits_check_active();

-- A day marked done.
CREATE TABLE habit_check_ins (
    habit_id bigint NOT NULL REFERENCES habits ON DELETE CASCADE,
    day date NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (habit_id, day)
);

-- Only an active habit takes a check-in (HB003), on a day from its start
-- (HB004) to the owner's today, never later (HB002).
CREATE FUNCTION habit_check_ins_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    habit record;
BEGIN
    SELECT h.status, h.started_on, (now() AT TIME ZONE p.time_zone)::date AS today INTO habit
    FROM habits h JOIN habit_profiles p ON p.user_id = h.user_id WHERE h.id = NEW.habit_id;
    IF NOT FOUND THEN
        RETURN NEW;  -- the foreign key's error
    ELSIF habit.status <> 'ACTIVE' THEN
        RAISE EXCEPTION 'only an active habit takes check-ins' USING ERRCODE = 'HB003';
    ELSIF NEW.day > habit.today THEN
        RAISE EXCEPTION 'a check-in cannot be in the future' USING ERRCODE = 'HB002';
    ELSIF NEW.day < habit.started_on THEN
        RAISE EXCEPTION 'a check-in cannot be before the habit started' USING ERRCODE = 'HB004';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER habit_check_ins_check BEFORE INSERT OR UPDATE ON habit_check_ins
    FOR EACH ROW EXECUTE FUNCTION habit_check_ins_check();

-- Streak milestones reached, each celebrated once per habit.
CREATE TABLE habit_milestones (
    habit_id bigint NOT NULL REFERENCES habits ON DELETE CASCADE,
    days integer NOT NULL CHECK (days IN (7, 30, 100)),
    reached_on date NOT NULL,
    PRIMARY KEY (habit_id, days)
);

-- Each habit's streaks as of its owner's today: the runs of consecutive
-- days (a day minus its rank is the same along a run), the current one
-- being a run that ends today or yesterday (today is not over yet).
CREATE FUNCTION habit_streaks(habit_ids bigint[])
RETURNS TABLE (habit_id bigint, current_streak integer, longest_streak integer, total integer, last_day date)
LANGUAGE sql STABLE AS $$
    SELECT h.id,
           coalesce(max(r.length) FILTER (WHERE r.last_day >= (now() AT TIME ZONE p.time_zone)::date - 1), 0)::int,
           coalesce(max(r.length), 0)::int, coalesce(sum(r.length), 0)::int, max(r.last_day)
    FROM habits h JOIN habit_profiles p ON p.user_id = h.user_id
    LEFT JOIN (
        SELECT c.habit_id, max(c.day) AS last_day, count(*) AS length
        FROM (SELECT c.habit_id, c.day, c.day - (row_number() OVER (PARTITION BY c.habit_id ORDER BY c.day))::int AS run
              FROM habit_check_ins c WHERE c.habit_id = ANY(habit_ids)) c
        GROUP BY c.habit_id, c.run
    ) r ON r.habit_id = h.id
    WHERE h.id = ANY(habit_ids)
    GROUP BY h.id
$$;

-- The next time a daily reminder at `at` (wall-clock, in `zone`) is due
-- after `after`: today's or tomorrow's in that zone. A time a DST change
-- skips is the same length after the change's start (02:30 on the spring
-- day is 03:30); a time it repeats is its later, standard-time occurrence.
CREATE FUNCTION habit_reminder_due(zone text, at time, after timestamptz) RETURNS timestamptz
LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN ((after AT TIME ZONE zone)::date + at) AT TIME ZONE zone > after
                THEN ((after AT TIME ZONE zone)::date + at) AT TIME ZONE zone
                ELSE ((after AT TIME ZONE zone)::date + 1 + at) AT TIME ZONE zone END
$$;

-- "Find a buddy": a swipe on another user, kept (a swipe again while the
-- list cycles replaces it).
CREATE TABLE buddy_swipes (
    user_id bigint NOT NULL REFERENCES habit_profiles ON DELETE CASCADE,
    candidate_id bigint NOT NULL REFERENCES habit_profiles ON DELETE CASCADE,
    direction text NOT NULL CHECK (direction IN ('LEFT', 'RIGHT')),
    swiped_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, candidate_id),
    CHECK (user_id <> candidate_id)
);
CREATE INDEX buddy_swipes_candidate ON buddy_swipes (candidate_id, user_id) WHERE direction = 'RIGHT';

-- Buddies, one row per pair, the lower id first.
CREATE TABLE buddy_pairs (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    first_id bigint NOT NULL REFERENCES habit_profiles ON DELETE CASCADE,
    second_id bigint NOT NULL REFERENCES habit_profiles ON DELETE CASCADE,
    matched_at timestamptz NOT NULL DEFAULT now(),
    CHECK (first_id < second_id),
    UNIQUE (first_id, second_id)
);
CREATE INDEX buddy_pairs_second ON buddy_pairs (second_id, first_id);

-- The cap on buddies per user: the server sets huddle.max_buddies in the
-- transactions that may make a pair (its --set max-buddies); 3 otherwise.
CREATE FUNCTION habit_max_buddies() RETURNS integer LANGUAGE sql STABLE AS $$
    SELECT coalesce(nullif(current_setting('huddle.max_buddies', true), '')::integer, 3)
$$;

CREATE FUNCTION habit_buddy_count(person bigint) RETURNS integer LANGUAGE sql STABLE AS $$
    SELECT (SELECT count(*) FROM buddy_pairs WHERE first_id = person) + (SELECT count(*) FROM buddy_pairs WHERE second_id = person)
$$;

-- A pair within the cap for both (HB005). Both profiles are taken in id
-- order, so two pairs made at once for one person count each other.
CREATE FUNCTION buddy_pairs_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM habit_profiles WHERE user_id IN (NEW.first_id, NEW.second_id) ORDER BY user_id FOR NO KEY UPDATE;
    IF habit_buddy_count(NEW.first_id) >= habit_max_buddies() OR habit_buddy_count(NEW.second_id) >= habit_max_buddies() THEN
        RAISE EXCEPTION 'a user has at most % buddies', habit_max_buddies() USING ERRCODE = 'HB005';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER buddy_pairs_check BEFORE INSERT ON buddy_pairs
    FOR EACH ROW EXECUTE FUNCTION buddy_pairs_check();

-- A right swipe answered by one makes the pair, exactly once: the two
-- profiles are taken in id order first, so of two swipes made at once the
-- second waits for the first to commit and then sees it. A pair one of
-- them has no room for is not made (the swipes stay; the list cycles).
CREATE FUNCTION buddy_swipes_match() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM habit_profiles WHERE user_id IN (NEW.user_id, NEW.candidate_id) ORDER BY user_id FOR NO KEY UPDATE;
    IF EXISTS (SELECT 1 FROM buddy_swipes WHERE user_id = NEW.candidate_id AND candidate_id = NEW.user_id AND direction = 'RIGHT')
       AND NOT EXISTS (SELECT 1 FROM buddy_pairs WHERE first_id = least(NEW.user_id, NEW.candidate_id)
                                                   AND second_id = greatest(NEW.user_id, NEW.candidate_id))
       AND habit_buddy_count(NEW.user_id) < habit_max_buddies() AND habit_buddy_count(NEW.candidate_id) < habit_max_buddies() THEN
        INSERT INTO buddy_pairs (first_id, second_id)
        VALUES (least(NEW.user_id, NEW.candidate_id), greatest(NEW.user_id, NEW.candidate_id))
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER buddy_swipes_match AFTER INSERT OR UPDATE OF direction ON buddy_swipes
    FOR EACH ROW WHEN (NEW.direction = 'RIGHT') EXECUTE FUNCTION buddy_swipes_match();

-- A weekly check-in between buddies: proposed by one, accepted or declined
-- by the other, cancelled by either.
CREATE TABLE buddy_meetings (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    organizer_id bigint NOT NULL REFERENCES habit_profiles ON DELETE CASCADE,
    buddy_id bigint NOT NULL REFERENCES habit_profiles ON DELETE CASCADE,
    starts_at timestamptz NOT NULL,
    -- The zone it was scheduled in, for showing it and for its .ics.
    time_zone text NOT NULL REFERENCES time_zones,
    duration_minutes integer NOT NULL CHECK (duration_minutes BETWEEN 5 AND 30),
    description text NOT NULL CHECK (char_length(description) <= 2000),
    status text NOT NULL DEFAULT 'PROPOSED' CHECK (status IN ('PROPOSED', 'ACCEPTED', 'DECLINED', 'CANCELLED')),
    cancelled_by bigint REFERENCES users ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK (organizer_id <> buddy_id)
);
CREATE INDEX buddy_meetings_organizer ON buddy_meetings (organizer_id, starts_at);
CREATE INDEX buddy_meetings_buddy ON buddy_meetings (buddy_id, starts_at);

-- Who is taken when: a proposed or accepted meeting holds both people's
-- time, and nobody holds two overlapping times (the exclusion constraint).
CREATE TABLE meeting_attendance (
    meeting_id bigint NOT NULL REFERENCES buddy_meetings ON DELETE CASCADE,
    user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    during tstzrange NOT NULL,
    PRIMARY KEY (meeting_id, user_id),
    CONSTRAINT meeting_attendance_no_overlap EXCLUDE USING gist (user_id WITH =, during WITH &&)
);

-- A meeting is between buddies (HB006), starts in the future (HB007) and
-- moves only from proposed to accepted, declined or cancelled, or from
-- accepted to cancelled (HB008); its attendance follows it.
CREATE FUNCTION buddy_meetings_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        IF NOT EXISTS (SELECT 1 FROM buddy_pairs WHERE first_id = least(NEW.organizer_id, NEW.buddy_id)
                                                   AND second_id = greatest(NEW.organizer_id, NEW.buddy_id)) THEN
            RAISE EXCEPTION 'a meeting is between buddies' USING ERRCODE = 'HB006';
        ELSIF NEW.starts_at <= now() THEN
            RAISE EXCEPTION 'a meeting starts in the future' USING ERRCODE = 'HB007';
        END IF;
    ELSIF NEW.organizer_id <> OLD.organizer_id OR NEW.buddy_id <> OLD.buddy_id OR NEW.starts_at <> OLD.starts_at
          OR NEW.duration_minutes <> OLD.duration_minutes
          OR (NEW.status <> OLD.status AND NOT (OLD.status = 'PROPOSED' OR (OLD.status = 'ACCEPTED' AND NEW.status = 'CANCELLED'))) THEN
        RAISE EXCEPTION 'a meeting moves from proposed to accepted, declined or cancelled, or from accepted to cancelled'
            USING ERRCODE = 'HB008';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER buddy_meetings_check BEFORE INSERT OR UPDATE ON buddy_meetings
    FOR EACH ROW EXECUTE FUNCTION buddy_meetings_check();

CREATE FUNCTION buddy_meetings_attendance() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO meeting_attendance (meeting_id, user_id, during)
        SELECT NEW.id, person, tstzrange(NEW.starts_at, NEW.starts_at + NEW.duration_minutes * interval '1 minute')
        FROM unnest(ARRAY[NEW.organizer_id, NEW.buddy_id]) AS person;
    ELSIF NEW.status IN ('DECLINED', 'CANCELLED') THEN
        DELETE FROM meeting_attendance WHERE meeting_id = NEW.id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER buddy_meetings_attendance AFTER INSERT OR UPDATE OF status ON buddy_meetings
    FOR EACH ROW EXECUTE FUNCTION buddy_meetings_attendance();

-- The meeting's checklist, ticked during the meeting.
CREATE TABLE meeting_checklist_items (
    meeting_id bigint NOT NULL REFERENCES buddy_meetings ON DELETE CASCADE,
    position integer NOT NULL CHECK (position BETWEEN 1 AND 20),
    text text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 300),
    checked_by bigint REFERENCES users ON DELETE SET NULL,
    checked_at timestamptz,
    PRIMARY KEY (meeting_id, position)
);

-- After a meeting each scores the other's progress, 1 to 5, once.
CREATE TABLE buddy_scores (
    meeting_id bigint NOT NULL REFERENCES buddy_meetings ON DELETE CASCADE,
    scorer_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    scored_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    score integer NOT NULL CHECK (score BETWEEN 1 AND 5),
    comment text NOT NULL DEFAULT '' CHECK (char_length(comment) <= 1000),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (meeting_id, scorer_id),
    CHECK (scorer_id <> scored_id)
);
CREATE INDEX buddy_scores_scored ON buddy_scores (scored_id, created_at);

-- A score is of an accepted meeting that has ended, by one of its two
-- people of the other (HB009).
CREATE FUNCTION buddy_scores_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (
        SELECT 1 FROM buddy_meetings m
        WHERE m.id = NEW.meeting_id AND m.status = 'ACCEPTED'
          AND m.starts_at + m.duration_minutes * interval '1 minute' <= now()
          AND ARRAY[NEW.scorer_id, NEW.scored_id] <@ ARRAY[m.organizer_id, m.buddy_id]
    ) THEN
        RAISE EXCEPTION 'a score is of an accepted meeting that has ended, by one of its people of the other'
            USING ERRCODE = 'HB009';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER buddy_scores_check BEFORE INSERT OR UPDATE ON buddy_scores
    FOR EACH ROW EXECUTE FUNCTION buddy_scores_check();
