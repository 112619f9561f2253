--
-- PostgreSQL database dump
--


-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
-- earthdistance's functions name its types without a schema, so the indexes
-- over ll_to_earth restore only with public on the search path.
SELECT pg_catalog.set_config('search_path', 'public', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: btree_gist; Type: EXTENSION; Schema: -; Owner: -
--

CREATE EXTENSION IF NOT EXISTS btree_gist WITH SCHEMA public;


--
-- Name: EXTENSION btree_gist; Type: COMMENT; Schema: -; Owner: -
--

COMMENT ON EXTENSION btree_gist IS 'support for indexing common datatypes in GiST';


--
-- Name: cube; Type: EXTENSION; Schema: -; Owner: -
--

CREATE EXTENSION IF NOT EXISTS cube WITH SCHEMA public;


--
-- Name: EXTENSION cube; Type: COMMENT; Schema: -; Owner: -
--

COMMENT ON EXTENSION cube IS 'data type for multidimensional cubes';


--
-- Name: earthdistance; Type: EXTENSION; Schema: -; Owner: -
--

CREATE EXTENSION IF NOT EXISTS earthdistance WITH SCHEMA public;


--
-- Name: EXTENSION earthdistance; Type: COMMENT; Schema: -; Owner: -
--

COMMENT ON EXTENSION earthdistance IS 'calculate great-circle distances on the surface of the Earth';


--
-- Name: pg_trgm; Type: EXTENSION; Schema: -; Owner: -
--

CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;


--
-- Name: EXTENSION pg_trgm; Type: COMMENT; Schema: -; Owner: -
--

COMMENT ON EXTENSION pg_trgm IS 'text similarity measurement and index searching based on trigrams';


--
-- Name: auth_tokens_revoked(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.auth_tokens_revoked() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM pg_notify('huddle_token_revoked', OLD.token_hash);
    RETURN NULL;
END $$;


--
-- Name: buddy_meetings_attendance(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.buddy_meetings_attendance() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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


--
-- Name: buddy_meetings_check(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.buddy_meetings_check() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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


--
-- Name: buddy_pairs_check(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.buddy_pairs_check() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM 1 FROM habit_profiles WHERE user_id IN (NEW.first_id, NEW.second_id) ORDER BY user_id FOR NO KEY UPDATE;
    IF habit_buddy_count(NEW.first_id) >= habit_max_buddies() OR habit_buddy_count(NEW.second_id) >= habit_max_buddies() THEN
        RAISE EXCEPTION 'a user has at most % buddies', habit_max_buddies() USING ERRCODE = 'HB005';
    END IF;
    RETURN NEW;
END $$;


--
-- Name: buddy_scores_check(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.buddy_scores_check() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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


--
-- Name: buddy_swipes_match(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.buddy_swipes_match() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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


--
-- Name: friend_request_not_between_friends(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.friend_request_not_between_friends() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM friendships WHERE user_id = NEW.from_user AND friend_id = NEW.to_user) THEN
        RAISE EXCEPTION 'already friends' USING ERRCODE = 'check_violation', CONSTRAINT = 'friend_requests_not_friends';
    END IF;
    RETURN NEW;
END $$;


--
-- Name: habit_buddy_count(bigint); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.habit_buddy_count(person bigint) RETURNS integer
    LANGUAGE sql STABLE
    AS $$
    SELECT (SELECT count(*) FROM buddy_pairs WHERE first_id = person) + (SELECT count(*) FROM buddy_pairs WHERE second_id = person)
$$;


--
-- Name: habit_check_ins_check(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.habit_check_ins_check() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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


--
-- Name: habit_max_buddies(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.habit_max_buddies() RETURNS integer
    LANGUAGE sql STABLE
    AS $$
    SELECT coalesce(nullif(current_setting('huddle.max_buddies', true), '')::integer, 3)
$$;


--
-- Name: habit_reminder_due(text, time without time zone, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.habit_reminder_due(zone text, at time without time zone, after timestamp with time zone) RETURNS timestamp with time zone
    LANGUAGE sql STABLE
    AS $$
    SELECT CASE WHEN ((after AT TIME ZONE zone)::date + at) AT TIME ZONE zone > after
                THEN ((after AT TIME ZONE zone)::date + at) AT TIME ZONE zone
                ELSE ((after AT TIME ZONE zone)::date + 1 + at) AT TIME ZONE zone END
$$;


--
-- Name: habit_streaks(bigint[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.habit_streaks(habit_ids bigint[]) RETURNS TABLE(habit_id bigint, current_streak integer, longest_streak integer, total integer, last_day date)
    LANGUAGE sql STABLE
    AS $$
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


--
-- Name: habits_check_active(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.habits_check_active() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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


--
-- Name: karma_awards_total(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.karma_awards_total() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO prolific_writers AS w (user_id, karma, projects_created, snippets_submitted, votes_rounds, rounds_won)
    VALUES (NEW.user_id, NEW.points,
        (NEW.reason = 'PROJECT_CREATED')::int, (NEW.reason = 'SNIPPET_SUBMITTED')::int,
        (NEW.reason = 'VOTED')::int, (NEW.reason = 'ROUND_WON')::int)
    ON CONFLICT (user_id) DO UPDATE SET
        karma = w.karma + EXCLUDED.karma,
        projects_created = w.projects_created + EXCLUDED.projects_created,
        snippets_submitted = w.snippets_submitted + EXCLUDED.snippets_submitted,
        votes_rounds = w.votes_rounds + EXCLUDED.votes_rounds,
        rounds_won = w.rounds_won + EXCLUDED.rounds_won;
    RETURN NEW;
END $$;


--
-- Name: pet_favorites_check(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.pet_favorites_check() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pet_swipes s WHERE s.user_id = NEW.user_id AND s.pet_id = NEW.pet_id
                   AND s.direction IN ('RIGHT', 'SUPER')) THEN
        RAISE EXCEPTION 'a favourite is a right swipe' USING ERRCODE = 'PM004';
    END IF;
    RETURN NEW;
END $$;


--
-- Name: pet_swipes_check(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.pet_swipes_check() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    pet_status text;
BEGIN
    SELECT p.status INTO pet_status FROM pets p WHERE p.id = NEW.pet_id FOR SHARE;
    -- No such pet: the foreign key refuses the swipe.
    IF FOUND AND pet_status <> 'ADOPTABLE' THEN
        RAISE EXCEPTION 'this pet is not up for adoption' USING ERRCODE = 'PM001';
    END IF;
    RETURN NEW;
END $$;


--
-- Name: pet_swipes_favorite(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.pet_swipes_favorite() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF NEW.direction = 'LEFT' THEN
        DELETE FROM pet_favorites WHERE user_id = NEW.user_id AND pet_id = NEW.pet_id;
    ELSE
        INSERT INTO pet_favorites (user_id, pet_id, is_super) VALUES (NEW.user_id, NEW.pet_id, NEW.direction = 'SUPER')
        ON CONFLICT (user_id, pet_id) DO UPDATE SET is_super = EXCLUDED.is_super;
    END IF;
    RETURN NULL;
END $$;


--
-- Name: pets_check_staff(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.pets_check_staff() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND NEW.shelter_id <> OLD.shelter_id THEN
        RAISE EXCEPTION 'a pet stays with its shelter' USING ERRCODE = 'PM003';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM shelter_staff s WHERE s.shelter_id = NEW.shelter_id AND s.user_id = NEW.updated_by) THEN
        RAISE EXCEPTION 'only the shelter''s staff may change its pets' USING ERRCODE = 'PM002';
    END IF;
    IF TG_OP = 'UPDATE' THEN
        NEW.updated_at := now();
        IF NEW.status <> OLD.status THEN
            NEW.status_changed_at := now();
        END IF;
    END IF;
    RETURN NEW;
END $$;


--
-- Name: project_follows_change(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.project_follows_change() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM prolific_require_member(NEW.project_id, NEW.user_id);
        UPDATE projects SET follower_count = follower_count + 1, heat = prolific_heat_add(heat, 2, now()) WHERE id = NEW.project_id;
        RETURN NEW;
    END IF;
    UPDATE projects SET follower_count = follower_count - 1 WHERE id = OLD.project_id;
    RETURN OLD;
END $$;


--
-- Name: projects_after_insert(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.projects_after_insert() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO project_members (project_id, user_id) VALUES (NEW.id, NEW.owner_id);
    PERFORM prolific_award(NEW.owner_id, 'PROJECT_CREATED', NEW.id);
    RETURN NEW;
END $$;


--
-- Name: projects_before_insert(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.projects_before_insert() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    NEW.heat := prolific_heat_add(NULL, 8, NEW.created_at);
    RETURN NEW;
END $$;


--
-- Name: prolific_award(bigint, text, bigint); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.prolific_award(user_id bigint, reason text, subject_id bigint) RETURNS void
    LANGUAGE sql
    AS $$
    INSERT INTO karma_awards (user_id, reason, subject_id, points)
    VALUES (user_id, reason, subject_id, CASE reason
        WHEN 'PROJECT_CREATED' THEN 5 WHEN 'SNIPPET_SUBMITTED' THEN 2 WHEN 'VOTED' THEN 1 WHEN 'ROUND_WON' THEN 10 END)
    ON CONFLICT DO NOTHING
$$;


--
-- Name: prolific_heat_add(double precision, double precision, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.prolific_heat_add(heat double precision, weight double precision, at timestamp with time zone) RETURNS double precision
    LANGUAGE sql STABLE
    AS $$
    SELECT CASE WHEN heat IS NULL THEN event
        ELSE greatest(heat, event) + ln(1 + power(2::double precision, -abs(heat - event))) / ln(2) END
    FROM (SELECT ln(weight) / ln(2) + extract(epoch FROM at)::double precision / 86400 AS event) e
$$;


--
-- Name: prolific_refresh_habits(bigint[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.prolific_refresh_habits(voters bigint[]) RETURNS void
    LANGUAGE sql
    AS $$
    DELETE FROM voter_habits WHERE voter_id = ANY(voters);
    INSERT INTO voter_habits (voter_id, author_id)
    SELECT voter.id, habit.author_id FROM unnest(voters) AS voter(id)
    CROSS JOIN LATERAL (
        SELECT author_id FROM (
            SELECT recent.authors, count(*) OVER () AS rounds FROM (
                SELECT h.authors FROM voter_rounds h WHERE h.voter_id = voter.id
                ORDER BY h.completed_at DESC, h.round_id DESC LIMIT 10
            ) recent
        ) windowed, unnest(windowed.authors) AS author_id
        WHERE windowed.rounds >= 3
        GROUP BY author_id, windowed.rounds HAVING count(*) * 2 > windowed.rounds
    ) habit;
$$;


--
-- Name: prolific_require_member(bigint, bigint); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.prolific_require_member(project bigint, member bigint) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF (SELECT is_private FROM projects WHERE id = project)
        AND NOT EXISTS (SELECT 1 FROM project_members m WHERE m.project_id = project AND m.user_id = member) THEN
        RAISE EXCEPTION 'only members of this private project may do this' USING ERRCODE = 'PR003';
    END IF;
END $$;


--
-- Name: prolific_require_open_round(bigint); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.prolific_require_open_round(round bigint) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF (SELECT completed_at FROM rounds WHERE id = round FOR SHARE) IS NOT NULL THEN
        RAISE EXCEPTION 'this round has ended' USING ERRCODE = 'PR001';
    END IF;
END $$;


--
-- Name: prolific_snippet_scores(bigint[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.prolific_snippet_scores(round_ids bigint[]) RETURNS TABLE(snippet_id bigint, round_id bigint, votes integer, score double precision)
    LANGUAGE plpgsql STABLE
    AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY
    WITH ballots AS (
        SELECT v.snippet_id, v.round_id, v.voter_id, s.author_id,
               count(*) OVER (PARTITION BY v.round_id, v.voter_id) AS spread
        FROM votes v JOIN snippets s ON s.id = v.snippet_id
        WHERE v.round_id = ANY(round_ids)
    ), weighted AS (
        SELECT b.snippet_id,
               greatest(coalesce(w.karma, 0), 1)::double precision / b.spread
                 * CASE WHEN h.voter_id IS NOT NULL THEN 0.25 ELSE 1 END AS weight
        FROM ballots b
        LEFT JOIN prolific_writers w ON w.user_id = b.voter_id
        LEFT JOIN voter_habits h ON h.voter_id = b.voter_id AND h.author_id = b.author_id
    )
    SELECT s.id, s.round_id, count(x.snippet_id)::int, coalesce(sum(x.weight), 0)
    FROM snippets s LEFT JOIN weighted x ON x.snippet_id = s.id
    WHERE s.round_id = ANY(round_ids)
    GROUP BY s.id, s.round_id;
END $$;


--
-- Name: prolific_touch(bigint, double precision); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.prolific_touch(project bigint, weight double precision) RETURNS void
    LANGUAGE sql
    AS $$
    UPDATE projects SET heat = prolific_heat_add(heat, weight, now()), last_activity_at = now() WHERE id = project
$$;


--
-- Name: rounds_after_end(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.rounds_after_end() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF NEW.winner_id IS NOT NULL THEN
        PERFORM prolific_award((SELECT author_id FROM snippets WHERE id = NEW.winner_id), 'ROUND_WON', NEW.id);
    END IF;
    INSERT INTO voter_rounds (voter_id, round_id, completed_at, authors)
    SELECT v.voter_id, v.round_id, NEW.completed_at, array_agg(DISTINCT s.author_id)
    FROM votes v JOIN snippets s ON s.id = v.snippet_id WHERE v.round_id = NEW.id GROUP BY v.voter_id, v.round_id;
    PERFORM prolific_refresh_habits(ARRAY(SELECT DISTINCT voter_id FROM votes WHERE round_id = NEW.id));
    RETURN NEW;
END $$;


--
-- Name: rounds_before_update(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.rounds_before_update() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF OLD.completed_at IS NOT NULL THEN
        RAISE EXCEPTION 'a finished round never changes' USING ERRCODE = 'PR005';
    END IF;
    RETURN NEW;
END $$;


--
-- Name: session_players_count(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.session_players_count() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE sports_sessions SET occupied = occupied + 1, player_ids = player_ids || NEW.user_id
        WHERE id = NEW.session_id;
        RETURN NEW;
    END IF;
    UPDATE sports_sessions SET occupied = occupied - 1, player_ids = array_remove(player_ids, OLD.user_id)
    WHERE id = OLD.session_id;
    RETURN OLD;
END $$;


--
-- Name: shelter_staff_keep_one(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.shelter_staff_keep_one() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM shelters s WHERE s.id = OLD.shelter_id)
       AND NOT EXISTS (SELECT 1 FROM shelter_staff s WHERE s.shelter_id = OLD.shelter_id) THEN
        RAISE EXCEPTION 'a shelter keeps at least one staff member' USING ERRCODE = 'PM005';
    END IF;
    RETURN OLD;
END $$;


--
-- Name: shelters_changed(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.shelters_changed() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM pg_notify('huddle_shelters_changed', '');
    RETURN NULL;
END $$;


--
-- Name: snippets_after_insert(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.snippets_after_insert() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM prolific_award(NEW.author_id, 'SNIPPET_SUBMITTED', NEW.id);
    PERFORM prolific_touch(NEW.project_id, 3);
    RETURN NEW;
END $$;


--
-- Name: snippets_before_insert(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.snippets_before_insert() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM prolific_require_open_round(NEW.round_id);
    PERFORM prolific_require_member(NEW.project_id, NEW.author_id);
    RETURN NEW;
END $$;


--
-- Name: snippets_immutable(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.snippets_immutable() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    RAISE EXCEPTION 'a snippet never changes once posted' USING ERRCODE = 'PR004';
END $$;


--
-- Name: votes_check(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.votes_check() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    vote votes;
    snippet snippets;
BEGIN
    IF TG_OP = 'DELETE' THEN vote := OLD; ELSE vote := NEW; END IF;
    PERFORM prolific_require_open_round(vote.round_id);
    IF TG_OP = 'INSERT' THEN
        SELECT * INTO snippet FROM snippets WHERE id = vote.snippet_id;
        IF snippet.author_id = vote.voter_id THEN
            RAISE EXCEPTION 'you cannot vote for your own snippet' USING ERRCODE = 'PR002';
        END IF;
        PERFORM prolific_require_member(snippet.project_id, vote.voter_id);
        PERFORM prolific_award(vote.voter_id, 'VOTED', vote.round_id);
        PERFORM prolific_touch(snippet.project_id, 1);
        RETURN NEW;
    END IF;
    RETURN OLD;
END $$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: auth_tokens; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.auth_tokens (
    token_hash text NOT NULL,
    user_id bigint NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL
);


--
-- Name: breeds; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.breeds (
    id bigint NOT NULL,
    type text NOT NULL,
    name text NOT NULL,
    CONSTRAINT breeds_name_check CHECK (((char_length(name) >= 1) AND (char_length(name) <= 80)))
);


--
-- Name: breeds_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.breeds ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.breeds_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: buddy_meetings; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.buddy_meetings (
    id bigint NOT NULL,
    organizer_id bigint NOT NULL,
    buddy_id bigint NOT NULL,
    starts_at timestamp with time zone NOT NULL,
    time_zone text NOT NULL,
    duration_minutes integer NOT NULL,
    description text NOT NULL,
    status text DEFAULT 'PROPOSED'::text NOT NULL,
    cancelled_by bigint,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT buddy_meetings_check CHECK ((organizer_id <> buddy_id)),
    CONSTRAINT buddy_meetings_description_check CHECK ((char_length(description) <= 2000)),
    CONSTRAINT buddy_meetings_duration_minutes_check CHECK (((duration_minutes >= 5) AND (duration_minutes <= 30))),
    CONSTRAINT buddy_meetings_status_check CHECK ((status = ANY (ARRAY['PROPOSED'::text, 'ACCEPTED'::text, 'DECLINED'::text, 'CANCELLED'::text])))
);


--
-- Name: buddy_meetings_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.buddy_meetings ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.buddy_meetings_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: buddy_pairs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.buddy_pairs (
    id bigint NOT NULL,
    first_id bigint NOT NULL,
    second_id bigint NOT NULL,
    matched_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT buddy_pairs_check CHECK ((first_id < second_id))
);


--
-- Name: buddy_pairs_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.buddy_pairs ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.buddy_pairs_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: buddy_scores; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.buddy_scores (
    meeting_id bigint NOT NULL,
    scorer_id bigint NOT NULL,
    scored_id bigint NOT NULL,
    score integer NOT NULL,
    comment text DEFAULT ''::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT buddy_scores_check CHECK ((scorer_id <> scored_id)),
    CONSTRAINT buddy_scores_comment_check CHECK ((char_length(comment) <= 1000)),
    CONSTRAINT buddy_scores_score_check CHECK (((score >= 1) AND (score <= 5)))
);


--
-- Name: buddy_swipes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.buddy_swipes (
    user_id bigint NOT NULL,
    candidate_id bigint NOT NULL,
    direction text NOT NULL,
    swiped_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT buddy_swipes_check CHECK ((user_id <> candidate_id)),
    CONSTRAINT buddy_swipes_direction_check CHECK ((direction = ANY (ARRAY['LEFT'::text, 'RIGHT'::text])))
);


--
-- Name: friend_requests; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.friend_requests (
    id bigint NOT NULL,
    from_user bigint NOT NULL,
    to_user bigint NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT friend_requests_check CHECK ((from_user <> to_user))
);


--
-- Name: friend_requests_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.friend_requests ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.friend_requests_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: friendships; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.friendships (
    user_id bigint NOT NULL,
    friend_id bigint NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT friendships_check CHECK ((user_id <> friend_id))
);


--
-- Name: habit_catalogue; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.habit_catalogue (
    id integer NOT NULL,
    name text NOT NULL,
    category text NOT NULL,
    CONSTRAINT habit_catalogue_category_check CHECK ((category = ANY (ARRAY['HEALTH'::text, 'MIND'::text, 'LEARNING'::text, 'WORK'::text, 'MONEY'::text, 'HOME'::text, 'SOCIAL'::text]))),
    CONSTRAINT habit_catalogue_name_check CHECK (((char_length(name) >= 1) AND (char_length(name) <= 80)))
);


--
-- Name: habit_check_ins; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.habit_check_ins (
    habit_id bigint NOT NULL,
    day date NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: habit_milestones; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.habit_milestones (
    habit_id bigint NOT NULL,
    days integer NOT NULL,
    reached_on date NOT NULL,
    CONSTRAINT habit_milestones_days_check CHECK ((days = ANY (ARRAY[7, 30, 100])))
);


--
-- Name: habit_profiles; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.habit_profiles (
    user_id bigint NOT NULL,
    time_zone text NOT NULL,
    looking_for_buddies boolean DEFAULT true NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: habits; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.habits (
    id bigint NOT NULL,
    user_id bigint NOT NULL,
    catalogue_id integer,
    custom_name text,
    match_key text GENERATED ALWAYS AS (COALESCE(('c'::text || (catalogue_id)::text), ('o:'::text || lower(btrim(custom_name))))) STORED,
    status text DEFAULT 'ACTIVE'::text NOT NULL,
    started_on date NOT NULL,
    reminder_time time(0) without time zone,
    last_reminded_on date,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT habits_check CHECK (((catalogue_id IS NULL) <> (custom_name IS NULL))),
    CONSTRAINT habits_custom_name_check CHECK (((char_length(btrim(custom_name)) >= 1) AND (char_length(btrim(custom_name)) <= 80))),
    CONSTRAINT habits_status_check CHECK ((status = ANY (ARRAY['ACTIVE'::text, 'PAUSED'::text, 'ARCHIVED'::text])))
);


--
-- Name: habits_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.habits ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.habits_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: invitations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.invitations (
    id bigint NOT NULL,
    session_id bigint NOT NULL,
    from_user bigint NOT NULL,
    to_user bigint NOT NULL,
    status text DEFAULT 'PENDING'::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    answered_at timestamp with time zone,
    CONSTRAINT invitations_check CHECK ((from_user <> to_user)),
    CONSTRAINT invitations_check1 CHECK (((status = 'PENDING'::text) = (answered_at IS NULL))),
    CONSTRAINT invitations_status_check CHECK ((status = ANY (ARRAY['PENDING'::text, 'ACCEPTED'::text, 'DECLINED'::text])))
);


--
-- Name: invitations_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.invitations ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.invitations_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: karma_awards; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.karma_awards (
    id bigint NOT NULL,
    user_id bigint NOT NULL,
    reason text NOT NULL,
    subject_id bigint NOT NULL,
    points integer NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT karma_awards_points_check CHECK ((points > 0)),
    CONSTRAINT karma_awards_reason_check CHECK ((reason = ANY (ARRAY['PROJECT_CREATED'::text, 'SNIPPET_SUBMITTED'::text, 'VOTED'::text, 'ROUND_WON'::text])))
);


--
-- Name: karma_awards_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.karma_awards ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.karma_awards_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: locations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.locations (
    id bigint NOT NULL,
    name text NOT NULL,
    latitude double precision NOT NULL,
    longitude double precision NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT locations_latitude_check CHECK (((latitude >= ('-90'::integer)::double precision) AND (latitude <= (90)::double precision))),
    CONSTRAINT locations_longitude_check CHECK (((longitude >= ('-180'::integer)::double precision) AND (longitude <= (180)::double precision))),
    CONSTRAINT locations_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200)))
);


--
-- Name: locations_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.locations ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.locations_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: meeting_attendance; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.meeting_attendance (
    meeting_id bigint NOT NULL,
    user_id bigint NOT NULL,
    during tstzrange NOT NULL
);


--
-- Name: meeting_checklist_items; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.meeting_checklist_items (
    meeting_id bigint NOT NULL,
    "position" integer NOT NULL,
    text text NOT NULL,
    checked_by bigint,
    checked_at timestamp with time zone,
    CONSTRAINT meeting_checklist_items_position_check CHECK ((("position" >= 1) AND ("position" <= 20))),
    CONSTRAINT meeting_checklist_items_text_check CHECK (((char_length(text) >= 1) AND (char_length(text) <= 300)))
);


--
-- Name: notification_kinds; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.notification_kinds (
    kind text NOT NULL,
    app text NOT NULL,
    CONSTRAINT notification_kinds_kind_check CHECK ((kind ~ '^[A-Z][A-Z0-9_]*$'::text))
);


--
-- Name: notifications; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.notifications (
    id bigint NOT NULL,
    user_id bigint NOT NULL,
    kind text NOT NULL,
    actor_id bigint,
    message text DEFAULT ''::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    read_at timestamp with time zone,
    subject_type text,
    subject_id bigint,
    scope_type text,
    scope_id bigint,
    CONSTRAINT notifications_scope CHECK ((((scope_type IS NULL) = (scope_id IS NULL)) AND ((scope_type IS NULL) OR (subject_type IS NOT NULL)))),
    CONSTRAINT notifications_subject CHECK (((subject_type IS NULL) = (subject_id IS NULL)))
);


--
-- Name: notifications_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.notifications ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.notifications_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: pet_favorites; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.pet_favorites (
    user_id bigint NOT NULL,
    pet_id bigint NOT NULL,
    is_super boolean NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: pet_photos; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.pet_photos (
    pet_id bigint NOT NULL,
    "position" integer NOT NULL,
    url text NOT NULL,
    CONSTRAINT pet_photos_position_check CHECK ((("position" >= 0) AND ("position" <= 11))),
    CONSTRAINT pet_photos_url_check CHECK (((length(url) <= 2048) AND (url ~ '^https?://[^[:space:]]+$'::text)))
);


--
-- Name: pet_preference_breeds; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.pet_preference_breeds (
    user_id bigint NOT NULL,
    type text NOT NULL,
    breed_id bigint NOT NULL
);


--
-- Name: pet_preferences; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.pet_preferences (
    user_id bigint NOT NULL,
    type text,
    sizes text[] DEFAULT '{}'::text[] NOT NULL,
    age_groups text[] DEFAULT '{}'::text[] NOT NULL,
    genders text[] DEFAULT '{}'::text[] NOT NULL,
    latitude double precision,
    longitude double precision,
    distance_km double precision DEFAULT 50 NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT pet_preferences_age_groups_check CHECK ((age_groups <@ ARRAY['BABY'::text, 'YOUNG'::text, 'ADULT'::text, 'SENIOR'::text])),
    CONSTRAINT pet_preferences_check CHECK (((latitude IS NULL) = (longitude IS NULL))),
    CONSTRAINT pet_preferences_distance_km_check CHECK (((distance_km > (0)::double precision) AND (distance_km <= (500)::double precision))),
    CONSTRAINT pet_preferences_genders_check CHECK ((genders <@ ARRAY['FEMALE'::text, 'MALE'::text, 'UNKNOWN'::text])),
    CONSTRAINT pet_preferences_latitude_check CHECK (((latitude >= ('-90'::integer)::double precision) AND (latitude <= (90)::double precision))),
    CONSTRAINT pet_preferences_longitude_check CHECK (((longitude >= ('-180'::integer)::double precision) AND (longitude <= (180)::double precision))),
    CONSTRAINT pet_preferences_sizes_check CHECK ((sizes <@ ARRAY['SMALL'::text, 'MEDIUM'::text, 'LARGE'::text, 'EXTRA_LARGE'::text]))
);


--
-- Name: pet_swipes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.pet_swipes (
    user_id bigint NOT NULL,
    pet_id bigint NOT NULL,
    direction text NOT NULL,
    swiped_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT pet_swipes_direction_check CHECK ((direction = ANY (ARRAY['LEFT'::text, 'RIGHT'::text, 'SUPER'::text])))
);


--
-- Name: pet_type_coats; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.pet_type_coats (
    type text NOT NULL,
    coat text NOT NULL,
    CONSTRAINT pet_type_coats_coat_check CHECK ((coat = ANY (ARRAY['HAIRLESS'::text, 'SHORT'::text, 'MEDIUM'::text, 'LONG'::text, 'WIRE'::text, 'CURLY'::text])))
);


--
-- Name: pet_type_colors; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.pet_type_colors (
    type text NOT NULL,
    color text NOT NULL,
    "position" integer NOT NULL,
    CONSTRAINT pet_type_colors_color_check CHECK (((char_length(color) >= 1) AND (char_length(color) <= 60)))
);


--
-- Name: pet_types; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.pet_types (
    type text NOT NULL,
    name text NOT NULL,
    "position" integer NOT NULL,
    CONSTRAINT pet_types_type_check CHECK ((type ~ '^[A-Z_]+$'::text))
);


--
-- Name: pets; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.pets (
    id bigint NOT NULL,
    shelter_id bigint NOT NULL,
    name text NOT NULL,
    type text NOT NULL,
    primary_breed_id bigint NOT NULL,
    secondary_breed_id bigint,
    size text NOT NULL,
    age_group text NOT NULL,
    gender text NOT NULL,
    coat text,
    color text,
    description text DEFAULT ''::text NOT NULL,
    status text DEFAULT 'ADOPTABLE'::text NOT NULL,
    published_at timestamp with time zone DEFAULT now() NOT NULL,
    status_changed_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_by bigint,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT pets_age_group_check CHECK ((age_group = ANY (ARRAY['BABY'::text, 'YOUNG'::text, 'ADULT'::text, 'SENIOR'::text]))),
    CONSTRAINT pets_check CHECK ((secondary_breed_id <> primary_breed_id)),
    CONSTRAINT pets_description_check CHECK ((char_length(description) <= 4000)),
    CONSTRAINT pets_gender_check CHECK ((gender = ANY (ARRAY['FEMALE'::text, 'MALE'::text, 'UNKNOWN'::text]))),
    CONSTRAINT pets_name_check CHECK ((((char_length(name) >= 1) AND (char_length(name) <= 60)) AND (name = btrim(name)))),
    CONSTRAINT pets_size_check CHECK ((size = ANY (ARRAY['SMALL'::text, 'MEDIUM'::text, 'LARGE'::text, 'EXTRA_LARGE'::text]))),
    CONSTRAINT pets_status_check CHECK ((status = ANY (ARRAY['ADOPTABLE'::text, 'PENDING'::text, 'ADOPTED'::text])))
);


--
-- Name: pets_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.pets ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.pets_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: project_follows; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.project_follows (
    project_id bigint NOT NULL,
    user_id bigint NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: project_members; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.project_members (
    project_id bigint NOT NULL,
    user_id bigint NOT NULL,
    invited_by bigint,
    joined_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: projects; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.projects (
    id bigint NOT NULL,
    owner_id bigint NOT NULL,
    title text NOT NULL,
    seed text NOT NULL,
    is_private boolean DEFAULT false NOT NULL,
    pace text NOT NULL,
    round_minutes integer NOT NULL,
    round_limit integer,
    rounds_completed integer DEFAULT 0 NOT NULL,
    completed_at timestamp with time zone,
    follower_count integer DEFAULT 0 NOT NULL,
    heat double precision NOT NULL,
    last_activity_at timestamp with time zone DEFAULT now() NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT projects_check CHECK (((round_limit IS NULL) OR (rounds_completed <= round_limit))),
    CONSTRAINT projects_check1 CHECK (((pace <> 'NORMAL'::text) OR (round_minutes = 1440))),
    CONSTRAINT projects_check2 CHECK (((pace <> 'SPEED'::text) OR (round_minutes = 10))),
    CONSTRAINT projects_follower_count_check CHECK ((follower_count >= 0)),
    CONSTRAINT projects_pace_check CHECK ((pace = ANY (ARRAY['NORMAL'::text, 'SPEED'::text, 'CUSTOM'::text]))),
    CONSTRAINT projects_round_limit_check CHECK (((round_limit >= 1) AND (round_limit <= 1000))),
    CONSTRAINT projects_round_minutes_check CHECK (((round_minutes >= 1) AND (round_minutes <= 10080))),
    CONSTRAINT projects_rounds_completed_check CHECK ((rounds_completed >= 0)),
    CONSTRAINT projects_seed_check CHECK ((((char_length(seed) >= 1) AND (char_length(seed) <= 1000)) AND (btrim(seed) <> ''::text))),
    CONSTRAINT projects_title_check CHECK ((((char_length(title) >= 1) AND (char_length(title) <= 120)) AND (title = btrim(title))))
);


--
-- Name: projects_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.projects ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.projects_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: prolific_writers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.prolific_writers (
    user_id bigint NOT NULL,
    karma integer DEFAULT 0 NOT NULL,
    projects_created integer DEFAULT 0 NOT NULL,
    snippets_submitted integer DEFAULT 0 NOT NULL,
    votes_rounds integer DEFAULT 0 NOT NULL,
    rounds_won integer DEFAULT 0 NOT NULL,
    CONSTRAINT prolific_writers_karma_check CHECK ((karma >= 0))
);


--
-- Name: quiz_results; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.quiz_results (
    user_id bigint NOT NULL,
    sports_played text[] DEFAULT '{}'::text[] NOT NULL,
    sports_not_wanted text[] DEFAULT '{}'::text[] NOT NULL,
    preferred_genders text[] DEFAULT '{}'::text[] NOT NULL,
    preferred_age_groups text[] DEFAULT '{}'::text[] NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT quiz_results_check CHECK ((NOT (sports_played && sports_not_wanted))),
    CONSTRAINT quiz_results_preferred_age_groups_check CHECK ((preferred_age_groups <@ ARRAY['UNDER_18'::text, 'AGE_18_24'::text, 'AGE_25_34'::text, 'AGE_35_44'::text, 'AGE_45_54'::text, 'AGE_55_PLUS'::text])),
    CONSTRAINT quiz_results_preferred_genders_check CHECK ((preferred_genders <@ ARRAY['FEMALE'::text, 'MALE'::text, 'NON_BINARY'::text, 'OTHER'::text]))
);


--
-- Name: rounds; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.rounds (
    id bigint NOT NULL,
    project_id bigint NOT NULL,
    number integer NOT NULL,
    started_at timestamp with time zone DEFAULT now() NOT NULL,
    ends_at timestamp with time zone NOT NULL,
    completed_at timestamp with time zone,
    winner_id bigint,
    extensions integer DEFAULT 0 NOT NULL,
    CONSTRAINT rounds_check CHECK ((ends_at > started_at)),
    CONSTRAINT rounds_check1 CHECK (((winner_id IS NULL) OR (completed_at IS NOT NULL))),
    CONSTRAINT rounds_extensions_check CHECK ((extensions >= 0)),
    CONSTRAINT rounds_number_check CHECK ((number >= 1))
);


--
-- Name: rounds_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.rounds ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.rounds_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: scheduled_jobs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.scheduled_jobs (
    id bigint NOT NULL,
    kind text NOT NULL,
    subject_id bigint NOT NULL,
    due_at timestamp with time zone NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    last_error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT scheduled_jobs_attempts_check CHECK ((attempts >= 0)),
    CONSTRAINT scheduled_jobs_kind_check CHECK ((kind ~ '^[a-z][a-z0-9_.-]{0,63}$'::text))
);


--
-- Name: scheduled_jobs_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.scheduled_jobs ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.scheduled_jobs_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: schema_migrations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_migrations (
    version integer NOT NULL,
    name text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: session_players; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.session_players (
    session_id bigint NOT NULL,
    user_id bigint NOT NULL,
    joined_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: shelter_staff; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.shelter_staff (
    shelter_id bigint NOT NULL,
    user_id bigint NOT NULL,
    added_by bigint,
    added_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: shelters; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.shelters (
    id bigint NOT NULL,
    name text NOT NULL,
    email text,
    phone text,
    street text DEFAULT ''::text NOT NULL,
    city text NOT NULL,
    state text DEFAULT ''::text NOT NULL,
    postcode text DEFAULT ''::text NOT NULL,
    country text DEFAULT 'US'::text NOT NULL,
    latitude double precision NOT NULL,
    longitude double precision NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT shelters_check CHECK (((email IS NOT NULL) OR (phone IS NOT NULL))),
    CONSTRAINT shelters_city_check CHECK (((char_length(city) >= 1) AND (char_length(city) <= 100))),
    CONSTRAINT shelters_country_check CHECK ((country ~ '^[A-Z]{2}$'::text)),
    CONSTRAINT shelters_email_check CHECK (((length(email) <= 254) AND (email ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$'::text))),
    CONSTRAINT shelters_latitude_check CHECK (((latitude >= ('-90'::integer)::double precision) AND (latitude <= (90)::double precision))),
    CONSTRAINT shelters_longitude_check CHECK (((longitude >= ('-180'::integer)::double precision) AND (longitude <= (180)::double precision))),
    CONSTRAINT shelters_name_check CHECK ((((char_length(name) >= 1) AND (char_length(name) <= 120)) AND (name = btrim(name)))),
    CONSTRAINT shelters_phone_check CHECK ((phone ~ '^\+?[0-9 ().-]{5,30}$'::text)),
    CONSTRAINT shelters_postcode_check CHECK ((length(postcode) <= 20)),
    CONSTRAINT shelters_state_check CHECK ((length(state) <= 100)),
    CONSTRAINT shelters_street_check CHECK ((length(street) <= 200))
);


--
-- Name: shelters_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.shelters ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.shelters_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: snippet_results; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.snippet_results (
    snippet_id bigint NOT NULL,
    round_id bigint NOT NULL,
    votes integer NOT NULL,
    score double precision NOT NULL,
    CONSTRAINT snippet_results_score_check CHECK ((score >= (0)::double precision)),
    CONSTRAINT snippet_results_votes_check CHECK ((votes >= 0))
);


--
-- Name: snippets; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.snippets (
    id bigint NOT NULL,
    round_id bigint NOT NULL,
    project_id bigint NOT NULL,
    author_id bigint NOT NULL,
    text text NOT NULL,
    is_ending boolean DEFAULT false NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT snippets_text_check CHECK ((((char_length(text) >= 1) AND (char_length(text) <= 1000)) AND (btrim(text) <> ''::text)))
);


--
-- Name: snippets_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.snippets ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.snippets_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: sports; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sports (
    name text NOT NULL
);


--
-- Name: sports_sessions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sports_sessions (
    id bigint NOT NULL,
    sport text NOT NULL,
    skill_level text NOT NULL,
    creator_id bigint NOT NULL,
    location_id bigint NOT NULL,
    latitude double precision NOT NULL,
    longitude double precision NOT NULL,
    occurs_at timestamp with time zone NOT NULL,
    duration_minutes integer NOT NULL,
    capacity integer NOT NULL,
    occupied integer DEFAULT 0 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    player_ids bigint[] DEFAULT '{}'::bigint[] NOT NULL,
    CONSTRAINT sports_sessions_capacity_check CHECK (((capacity >= 2) AND (capacity <= 100))),
    CONSTRAINT sports_sessions_check CHECK (((occupied >= 0) AND (occupied <= capacity))),
    CONSTRAINT sports_sessions_duration_minutes_check CHECK (((duration_minutes >= 1) AND (duration_minutes <= 1440))),
    CONSTRAINT sports_sessions_player_ids_match CHECK ((cardinality(player_ids) = occupied)),
    CONSTRAINT sports_sessions_skill_level_check CHECK ((skill_level = ANY (ARRAY['BEGINNER'::text, 'INTERMEDIATE'::text, 'ADVANCED'::text, 'ANY'::text])))
);


--
-- Name: sports_sessions_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.sports_sessions ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.sports_sessions_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: time_zones; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.time_zones (
    name text NOT NULL
);


--
-- Name: users; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.users (
    id bigint NOT NULL,
    username text NOT NULL,
    email text NOT NULL,
    password_hash text NOT NULL,
    first_name text DEFAULT ''::text NOT NULL,
    last_name text DEFAULT ''::text NOT NULL,
    birthday date,
    gender text,
    biography text DEFAULT ''::text NOT NULL,
    profile_image_url text,
    home_latitude double precision,
    home_longitude double precision,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT users_biography_check CHECK ((length(biography) <= 2000)),
    CONSTRAINT users_birthday_check CHECK ((birthday >= '1900-01-01'::date)),
    CONSTRAINT users_check CHECK (((home_latitude IS NULL) = (home_longitude IS NULL))),
    CONSTRAINT users_email_check CHECK (((length(email) <= 254) AND (email ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$'::text))),
    CONSTRAINT users_first_name_check CHECK ((length(first_name) <= 100)),
    CONSTRAINT users_gender_check CHECK ((gender = ANY (ARRAY['FEMALE'::text, 'MALE'::text, 'NON_BINARY'::text, 'OTHER'::text]))),
    CONSTRAINT users_home_latitude_check CHECK (((home_latitude >= ('-90'::integer)::double precision) AND (home_latitude <= (90)::double precision))),
    CONSTRAINT users_home_longitude_check CHECK (((home_longitude >= ('-180'::integer)::double precision) AND (home_longitude <= (180)::double precision))),
    CONSTRAINT users_last_name_check CHECK ((length(last_name) <= 100)),
    CONSTRAINT users_profile_image_url_check CHECK (((length(profile_image_url) <= 2048) AND (profile_image_url ~ '^https?://'::text))),
    CONSTRAINT users_username_check CHECK ((username ~ '^[A-Za-z0-9_.]{3,30}$'::text))
);


--
-- Name: users_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.users ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.users_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: voter_habits; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.voter_habits (
    voter_id bigint NOT NULL,
    author_id bigint NOT NULL
);


--
-- Name: voter_rounds; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.voter_rounds (
    voter_id bigint NOT NULL,
    round_id bigint NOT NULL,
    completed_at timestamp with time zone NOT NULL,
    authors bigint[] NOT NULL
);


--
-- Name: votes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.votes (
    snippet_id bigint NOT NULL,
    round_id bigint NOT NULL,
    voter_id bigint NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Data for Name: breeds; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (1, 'DOG', 'Beagle');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (2, 'DOG', 'Border Collie');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (3, 'DOG', 'Boxer');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (4, 'DOG', 'Chihuahua');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (5, 'DOG', 'Dachshund');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (6, 'DOG', 'German Shepherd Dog');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (7, 'DOG', 'Golden Retriever');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (8, 'DOG', 'Greyhound');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (9, 'DOG', 'Husky');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (10, 'DOG', 'Jack Russell Terrier');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (11, 'DOG', 'Labrador Retriever');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (12, 'DOG', 'Mixed Breed');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (13, 'DOG', 'Pit Bull Terrier');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (14, 'DOG', 'Poodle');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (15, 'DOG', 'Pug');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (16, 'DOG', 'Shih Tzu');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (17, 'DOG', 'Staffordshire Bull Terrier');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (18, 'DOG', 'Whippet');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (19, 'CAT', 'Abyssinian');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (20, 'CAT', 'Bengal');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (21, 'CAT', 'British Shorthair');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (22, 'CAT', 'Domestic Long Hair');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (23, 'CAT', 'Domestic Medium Hair');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (24, 'CAT', 'Domestic Short Hair');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (25, 'CAT', 'Maine Coon');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (26, 'CAT', 'Norwegian Forest Cat');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (27, 'CAT', 'Persian');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (28, 'CAT', 'Ragdoll');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (29, 'CAT', 'Russian Blue');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (30, 'CAT', 'Siamese');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (31, 'CAT', 'Sphynx');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (32, 'RABBIT', 'Dutch');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (33, 'RABBIT', 'Flemish Giant');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (34, 'RABBIT', 'Holland Lop');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (35, 'RABBIT', 'Lionhead');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (36, 'RABBIT', 'Mini Rex');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (37, 'RABBIT', 'Netherland Dwarf');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (38, 'RABBIT', 'Rex');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (39, 'SMALL_AND_FURRY', 'Chinchilla');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (40, 'SMALL_AND_FURRY', 'Ferret');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (41, 'SMALL_AND_FURRY', 'Gerbil');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (42, 'SMALL_AND_FURRY', 'Guinea Pig');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (43, 'SMALL_AND_FURRY', 'Hamster');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (44, 'SMALL_AND_FURRY', 'Mouse');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (45, 'SMALL_AND_FURRY', 'Rat');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (46, 'HORSE', 'Appaloosa');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (47, 'HORSE', 'Arabian');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (48, 'HORSE', 'Miniature Horse');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (49, 'HORSE', 'Pony');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (50, 'HORSE', 'Quarter Horse');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (51, 'HORSE', 'Thoroughbred');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (52, 'BIRD', 'Budgie');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (53, 'BIRD', 'Canary');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (54, 'BIRD', 'Cockatiel');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (55, 'BIRD', 'Conure');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (56, 'BIRD', 'Dove');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (57, 'BIRD', 'Finch');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (58, 'BIRD', 'Lovebird');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (59, 'BIRD', 'Parrot');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (60, 'SCALES_FINS_AND_OTHER', 'Bearded Dragon');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (61, 'SCALES_FINS_AND_OTHER', 'Corn Snake');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (62, 'SCALES_FINS_AND_OTHER', 'Goldfish');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (63, 'SCALES_FINS_AND_OTHER', 'Leopard Gecko');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (64, 'SCALES_FINS_AND_OTHER', 'Tortoise');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (65, 'SCALES_FINS_AND_OTHER', 'Turtle');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (66, 'BARNYARD', 'Alpaca');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (67, 'BARNYARD', 'Chicken');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (68, 'BARNYARD', 'Donkey');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (69, 'BARNYARD', 'Duck');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (70, 'BARNYARD', 'Goat');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (71, 'BARNYARD', 'Pig');
INSERT INTO public.breeds OVERRIDING SYSTEM VALUE VALUES (72, 'BARNYARD', 'Sheep');


--
-- Data for Name: habit_catalogue; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.habit_catalogue VALUES (1, 'Exercise for 30 minutes', 'HEALTH');
INSERT INTO public.habit_catalogue VALUES (2, 'Walk 10,000 steps', 'HEALTH');
INSERT INTO public.habit_catalogue VALUES (3, 'Drink 2 litres of water', 'HEALTH');
INSERT INTO public.habit_catalogue VALUES (4, 'Stretch or do yoga', 'HEALTH');
INSERT INTO public.habit_catalogue VALUES (5, 'In bed by 11 pm', 'HEALTH');
INSERT INTO public.habit_catalogue VALUES (6, 'Eat a vegetable with every meal', 'HEALTH');
INSERT INTO public.habit_catalogue VALUES (7, 'Meditate for 10 minutes', 'MIND');
INSERT INTO public.habit_catalogue VALUES (8, 'Write in a journal', 'MIND');
INSERT INTO public.habit_catalogue VALUES (9, 'No phone for the first hour', 'MIND');
INSERT INTO public.habit_catalogue VALUES (10, 'Read 20 pages', 'LEARNING');
INSERT INTO public.habit_catalogue VALUES (11, 'Practise a language', 'LEARNING');
INSERT INTO public.habit_catalogue VALUES (12, 'Practise an instrument', 'LEARNING');
INSERT INTO public.habit_catalogue VALUES (13, 'Code for an hour', 'LEARNING');
INSERT INTO public.habit_catalogue VALUES (14, 'Deep work before noon', 'WORK');
INSERT INTO public.habit_catalogue VALUES (15, 'Plan tomorrow tonight', 'WORK');
INSERT INTO public.habit_catalogue VALUES (16, 'No-spend day', 'MONEY');
INSERT INTO public.habit_catalogue VALUES (17, 'Track every expense', 'MONEY');
INSERT INTO public.habit_catalogue VALUES (18, 'Cook at home', 'HOME');
INSERT INTO public.habit_catalogue VALUES (19, 'Tidy for 15 minutes', 'HOME');
INSERT INTO public.habit_catalogue VALUES (20, 'Call a friend or family member', 'SOCIAL');


--
-- Data for Name: notification_kinds; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.notification_kinds VALUES ('FRIEND_REQUEST_RECEIVED', 'shared');
INSERT INTO public.notification_kinds VALUES ('FRIEND_REQUEST_ACCEPTED', 'shared');
INSERT INTO public.notification_kinds VALUES ('INVITATION_RECEIVED', 'playmate');
INSERT INTO public.notification_kinds VALUES ('INVITATION_ACCEPTED', 'playmate');
INSERT INTO public.notification_kinds VALUES ('INVITATION_DECLINED', 'playmate');
INSERT INTO public.notification_kinds VALUES ('SESSION_DELETED', 'playmate');
INSERT INTO public.notification_kinds VALUES ('SESSION_REMINDER', 'playmate');
INSERT INTO public.notification_kinds VALUES ('ROUND_ENDED', 'prolific');
INSERT INTO public.notification_kinds VALUES ('SNIPPET_WON', 'prolific');
INSERT INTO public.notification_kinds VALUES ('SNIPPET_VOTED', 'prolific');
INSERT INTO public.notification_kinds VALUES ('PROJECT_COMPLETED', 'prolific');
INSERT INTO public.notification_kinds VALUES ('PROJECT_INVITATION', 'prolific');
INSERT INTO public.notification_kinds VALUES ('FAVORITE_PET_STATUS_CHANGED', 'petmatch');
INSERT INTO public.notification_kinds VALUES ('FAVORITE_PET_UPDATED', 'petmatch');
INSERT INTO public.notification_kinds VALUES ('BUDDY_MATCHED', 'habitbuddies');
INSERT INTO public.notification_kinds VALUES ('BUDDY_SCORED', 'habitbuddies');
INSERT INTO public.notification_kinds VALUES ('MEETING_SCHEDULED', 'habitbuddies');
INSERT INTO public.notification_kinds VALUES ('MEETING_ACCEPTED', 'habitbuddies');
INSERT INTO public.notification_kinds VALUES ('MEETING_DECLINED', 'habitbuddies');
INSERT INTO public.notification_kinds VALUES ('MEETING_CANCELLED', 'habitbuddies');
INSERT INTO public.notification_kinds VALUES ('MEETING_REMINDER', 'habitbuddies');
INSERT INTO public.notification_kinds VALUES ('HABIT_REMINDER', 'habitbuddies');
INSERT INTO public.notification_kinds VALUES ('HABIT_MILESTONE', 'habitbuddies');


--
-- Data for Name: pet_type_coats; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.pet_type_coats VALUES ('DOG', 'HAIRLESS');
INSERT INTO public.pet_type_coats VALUES ('DOG', 'SHORT');
INSERT INTO public.pet_type_coats VALUES ('DOG', 'MEDIUM');
INSERT INTO public.pet_type_coats VALUES ('DOG', 'LONG');
INSERT INTO public.pet_type_coats VALUES ('DOG', 'WIRE');
INSERT INTO public.pet_type_coats VALUES ('DOG', 'CURLY');
INSERT INTO public.pet_type_coats VALUES ('CAT', 'HAIRLESS');
INSERT INTO public.pet_type_coats VALUES ('CAT', 'SHORT');
INSERT INTO public.pet_type_coats VALUES ('CAT', 'MEDIUM');
INSERT INTO public.pet_type_coats VALUES ('CAT', 'LONG');
INSERT INTO public.pet_type_coats VALUES ('RABBIT', 'SHORT');
INSERT INTO public.pet_type_coats VALUES ('RABBIT', 'LONG');
INSERT INTO public.pet_type_coats VALUES ('SMALL_AND_FURRY', 'HAIRLESS');
INSERT INTO public.pet_type_coats VALUES ('SMALL_AND_FURRY', 'SHORT');
INSERT INTO public.pet_type_coats VALUES ('SMALL_AND_FURRY', 'LONG');
INSERT INTO public.pet_type_coats VALUES ('HORSE', 'SHORT');
INSERT INTO public.pet_type_coats VALUES ('HORSE', 'LONG');
INSERT INTO public.pet_type_coats VALUES ('BARNYARD', 'SHORT');
INSERT INTO public.pet_type_coats VALUES ('BARNYARD', 'LONG');
INSERT INTO public.pet_type_coats VALUES ('BARNYARD', 'CURLY');


--
-- Data for Name: pet_type_colors; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.pet_type_colors VALUES ('DOG', 'Black', 1);
INSERT INTO public.pet_type_colors VALUES ('DOG', 'Brown / Chocolate', 2);
INSERT INTO public.pet_type_colors VALUES ('DOG', 'Golden', 3);
INSERT INTO public.pet_type_colors VALUES ('DOG', 'Red / Chestnut / Orange', 4);
INSERT INTO public.pet_type_colors VALUES ('DOG', 'Gray / Blue / Silver', 5);
INSERT INTO public.pet_type_colors VALUES ('DOG', 'White / Cream', 6);
INSERT INTO public.pet_type_colors VALUES ('DOG', 'Tricolor', 7);
INSERT INTO public.pet_type_colors VALUES ('DOG', 'Brindle', 8);
INSERT INTO public.pet_type_colors VALUES ('DOG', 'Merle', 9);
INSERT INTO public.pet_type_colors VALUES ('DOG', 'Bicolor', 10);
INSERT INTO public.pet_type_colors VALUES ('CAT', 'Black', 1);
INSERT INTO public.pet_type_colors VALUES ('CAT', 'Gray / Blue / Silver', 2);
INSERT INTO public.pet_type_colors VALUES ('CAT', 'Orange / Red', 3);
INSERT INTO public.pet_type_colors VALUES ('CAT', 'White', 4);
INSERT INTO public.pet_type_colors VALUES ('CAT', 'Cream / Ivory', 5);
INSERT INTO public.pet_type_colors VALUES ('CAT', 'Tabby (Brown)', 6);
INSERT INTO public.pet_type_colors VALUES ('CAT', 'Tortoiseshell', 7);
INSERT INTO public.pet_type_colors VALUES ('CAT', 'Calico', 8);
INSERT INTO public.pet_type_colors VALUES ('CAT', 'Tuxedo', 9);
INSERT INTO public.pet_type_colors VALUES ('CAT', 'Seal Point', 10);
INSERT INTO public.pet_type_colors VALUES ('RABBIT', 'Agouti', 1);
INSERT INTO public.pet_type_colors VALUES ('RABBIT', 'Black', 2);
INSERT INTO public.pet_type_colors VALUES ('RABBIT', 'Blue / Gray', 3);
INSERT INTO public.pet_type_colors VALUES ('RABBIT', 'Brown / Chocolate', 4);
INSERT INTO public.pet_type_colors VALUES ('RABBIT', 'Cream', 5);
INSERT INTO public.pet_type_colors VALUES ('RABBIT', 'White', 6);
INSERT INTO public.pet_type_colors VALUES ('RABBIT', 'Tortoise', 7);
INSERT INTO public.pet_type_colors VALUES ('RABBIT', 'Broken', 8);
INSERT INTO public.pet_type_colors VALUES ('SMALL_AND_FURRY', 'Agouti', 1);
INSERT INTO public.pet_type_colors VALUES ('SMALL_AND_FURRY', 'Black', 2);
INSERT INTO public.pet_type_colors VALUES ('SMALL_AND_FURRY', 'Brown', 3);
INSERT INTO public.pet_type_colors VALUES ('SMALL_AND_FURRY', 'Cream', 4);
INSERT INTO public.pet_type_colors VALUES ('SMALL_AND_FURRY', 'Golden', 5);
INSERT INTO public.pet_type_colors VALUES ('SMALL_AND_FURRY', 'Gray', 6);
INSERT INTO public.pet_type_colors VALUES ('SMALL_AND_FURRY', 'White', 7);
INSERT INTO public.pet_type_colors VALUES ('SMALL_AND_FURRY', 'Sable', 8);
INSERT INTO public.pet_type_colors VALUES ('HORSE', 'Bay', 1);
INSERT INTO public.pet_type_colors VALUES ('HORSE', 'Black', 2);
INSERT INTO public.pet_type_colors VALUES ('HORSE', 'Chestnut', 3);
INSERT INTO public.pet_type_colors VALUES ('HORSE', 'Dun', 4);
INSERT INTO public.pet_type_colors VALUES ('HORSE', 'Gray', 5);
INSERT INTO public.pet_type_colors VALUES ('HORSE', 'Palomino', 6);
INSERT INTO public.pet_type_colors VALUES ('HORSE', 'Pinto', 7);
INSERT INTO public.pet_type_colors VALUES ('HORSE', 'Roan', 8);
INSERT INTO public.pet_type_colors VALUES ('BIRD', 'Blue', 1);
INSERT INTO public.pet_type_colors VALUES ('BIRD', 'Green', 2);
INSERT INTO public.pet_type_colors VALUES ('BIRD', 'Gray', 3);
INSERT INTO public.pet_type_colors VALUES ('BIRD', 'Yellow', 4);
INSERT INTO public.pet_type_colors VALUES ('BIRD', 'White', 5);
INSERT INTO public.pet_type_colors VALUES ('BIRD', 'Mixed', 6);
INSERT INTO public.pet_type_colors VALUES ('SCALES_FINS_AND_OTHER', 'Black', 1);
INSERT INTO public.pet_type_colors VALUES ('SCALES_FINS_AND_OTHER', 'Brown', 2);
INSERT INTO public.pet_type_colors VALUES ('SCALES_FINS_AND_OTHER', 'Green', 3);
INSERT INTO public.pet_type_colors VALUES ('SCALES_FINS_AND_OTHER', 'Orange', 4);
INSERT INTO public.pet_type_colors VALUES ('SCALES_FINS_AND_OTHER', 'Red', 5);
INSERT INTO public.pet_type_colors VALUES ('SCALES_FINS_AND_OTHER', 'Yellow', 6);
INSERT INTO public.pet_type_colors VALUES ('SCALES_FINS_AND_OTHER', 'Mixed', 7);
INSERT INTO public.pet_type_colors VALUES ('BARNYARD', 'Black', 1);
INSERT INTO public.pet_type_colors VALUES ('BARNYARD', 'Brown', 2);
INSERT INTO public.pet_type_colors VALUES ('BARNYARD', 'White', 3);
INSERT INTO public.pet_type_colors VALUES ('BARNYARD', 'Gray', 4);
INSERT INTO public.pet_type_colors VALUES ('BARNYARD', 'Spotted', 5);


--
-- Data for Name: pet_types; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.pet_types VALUES ('DOG', 'Dog', 1);
INSERT INTO public.pet_types VALUES ('CAT', 'Cat', 2);
INSERT INTO public.pet_types VALUES ('RABBIT', 'Rabbit', 3);
INSERT INTO public.pet_types VALUES ('SMALL_AND_FURRY', 'Small & Furry', 4);
INSERT INTO public.pet_types VALUES ('HORSE', 'Horse', 5);
INSERT INTO public.pet_types VALUES ('BIRD', 'Bird', 6);
INSERT INTO public.pet_types VALUES ('SCALES_FINS_AND_OTHER', 'Scales, Fins & Other', 7);
INSERT INTO public.pet_types VALUES ('BARNYARD', 'Barnyard', 8);


--
-- Data for Name: schema_migrations; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.schema_migrations VALUES (1, '0001_accounts.sql', 'ae44bfd52aa255fb40d78738f51004f5327b9f224ce55c4a1049a6b08946e1fd', '2026-11-26 02:28:22.178408+00');
INSERT INTO public.schema_migrations VALUES (2, '0002_friends.sql', '9a11bf081280048b97af1a0f0c8ce2fc7f8614595919634945402d65e7ac165a', '2026-11-26 02:28:22.185998+00');
INSERT INTO public.schema_migrations VALUES (3, '0003_sessions.sql', 'be5c113f0d18a240b9961482e10305433d13d1727189128791aca7e141796ae6', '2026-11-26 02:28:22.192729+00');
INSERT INTO public.schema_migrations VALUES (4, '0004_invitations_quiz_notifications.sql', '260a67dfe627e04647ed184c93c7c27612e10038d94f91d44a212acaacc09ff3', '2026-11-26 02:28:22.21811+00');
INSERT INTO public.schema_migrations VALUES (5, '0005_planner_and_player_order.sql', '3dcd362d5669850e6e658396b755b2593764ba303308173b285d976905eaa599', '2026-11-26 02:28:22.230439+00');
INSERT INTO public.schema_migrations VALUES (6, '0006_session_player_ids.sql', '1b44fb941126cc0f30767b8afca92acb537d719ee6d9286c03d9c9e93206cd5c', '2026-11-26 02:28:22.233122+00');
INSERT INTO public.schema_migrations VALUES (7, '0007_shared_inbox.sql', '92b4183305ce69a90751081776ab06bf56b3a8630b2d166dff869787c7e2ba05', '2026-11-26 02:28:22.236755+00');
INSERT INTO public.schema_migrations VALUES (8, '0008_scheduled_jobs.sql', 'b399052badee2636e8112d0c307523256a7c9eaf5489926b99937325a664a163', '2026-11-26 02:28:22.242107+00');
INSERT INTO public.schema_migrations VALUES (9, '0009_prolific.sql', 'ce5e0f96c4b89630b48d6b664d9e079d7d11c7f86123863291f1fd49103dc80b', '2026-11-26 02:28:22.247685+00');
INSERT INTO public.schema_migrations VALUES (10, '0010_petmatch.sql', '304718b7487dc10f712ae8a20d35ec5cc1fb35e30d498712a16564cec8852686', '2026-11-26 02:28:22.281552+00');
INSERT INTO public.schema_migrations VALUES (11, '0011_habit_buddies.sql', 'c5360656700017a565a88aa54fea87e846fee6115fa2dd89d1aa1580a97ded98', '2026-11-26 02:28:22.321979+00');
INSERT INTO public.schema_migrations VALUES (12, '0012_token_revocation.sql', '13bc675514e84e5956d163ffc9dabf78b9d7a8fb7400cc971c038912da7c57a0', '2026-11-26 02:28:22.464899+00');
INSERT INTO public.schema_migrations VALUES (13, '0013_shelter_changes.sql', '9f7b42ba94b40a9858e03ee1cc785dc4c6f1436d7a406c8ac883bb0e4806d1ea', '2026-11-26 02:28:22.465836+00');


--
-- Data for Name: sports; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.sports VALUES ('BADMINTON');
INSERT INTO public.sports VALUES ('BASEBALL');
INSERT INTO public.sports VALUES ('BASKETBALL');
INSERT INTO public.sports VALUES ('CLIMBING');
INSERT INTO public.sports VALUES ('CYCLING');
INSERT INTO public.sports VALUES ('FOOTBALL');
INSERT INTO public.sports VALUES ('GOLF');
INSERT INTO public.sports VALUES ('HIKING');
INSERT INTO public.sports VALUES ('ICE_HOCKEY');
INSERT INTO public.sports VALUES ('RUNNING');
INSERT INTO public.sports VALUES ('SOCCER');
INSERT INTO public.sports VALUES ('SOFTBALL');
INSERT INTO public.sports VALUES ('SQUASH');
INSERT INTO public.sports VALUES ('SWIMMING');
INSERT INTO public.sports VALUES ('TABLE_TENNIS');
INSERT INTO public.sports VALUES ('TENNIS');
INSERT INTO public.sports VALUES ('ULTIMATE');
INSERT INTO public.sports VALUES ('VOLLEYBALL');
INSERT INTO public.sports VALUES ('YOGA');


--
-- Data for Name: time_zones; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.time_zones VALUES ('CET');
INSERT INTO public.time_zones VALUES ('WET');
INSERT INTO public.time_zones VALUES ('Pacific/Noumea');
INSERT INTO public.time_zones VALUES ('Pacific/Bougainville');
INSERT INTO public.time_zones VALUES ('Pacific/Kwajalein');
INSERT INTO public.time_zones VALUES ('Pacific/Kosrae');
INSERT INTO public.time_zones VALUES ('Pacific/Auckland');
INSERT INTO public.time_zones VALUES ('Pacific/Ponape');
INSERT INTO public.time_zones VALUES ('Pacific/Johnston');
INSERT INTO public.time_zones VALUES ('Pacific/Efate');
INSERT INTO public.time_zones VALUES ('Pacific/Midway');
INSERT INTO public.time_zones VALUES ('Pacific/Marquesas');
INSERT INTO public.time_zones VALUES ('Pacific/Saipan');
INSERT INTO public.time_zones VALUES ('Pacific/Fiji');
INSERT INTO public.time_zones VALUES ('Pacific/Kanton');
INSERT INTO public.time_zones VALUES ('Pacific/Wake');
INSERT INTO public.time_zones VALUES ('Pacific/Kiritimati');
INSERT INTO public.time_zones VALUES ('Pacific/Wallis');
INSERT INTO public.time_zones VALUES ('Pacific/Fakaofo');
INSERT INTO public.time_zones VALUES ('Pacific/Galapagos');
INSERT INTO public.time_zones VALUES ('Pacific/Gambier');
INSERT INTO public.time_zones VALUES ('Pacific/Enderbury');
INSERT INTO public.time_zones VALUES ('Pacific/Pitcairn');
INSERT INTO public.time_zones VALUES ('Pacific/Guadalcanal');
INSERT INTO public.time_zones VALUES ('Pacific/Chatham');
INSERT INTO public.time_zones VALUES ('Pacific/Yap');
INSERT INTO public.time_zones VALUES ('Pacific/Rarotonga');
INSERT INTO public.time_zones VALUES ('Pacific/Chuuk');
INSERT INTO public.time_zones VALUES ('Pacific/Funafuti');
INSERT INTO public.time_zones VALUES ('Pacific/Honolulu');
INSERT INTO public.time_zones VALUES ('Pacific/Pago_Pago');
INSERT INTO public.time_zones VALUES ('Pacific/Guam');
INSERT INTO public.time_zones VALUES ('Pacific/Tarawa');
INSERT INTO public.time_zones VALUES ('Pacific/Apia');
INSERT INTO public.time_zones VALUES ('Pacific/Tongatapu');
INSERT INTO public.time_zones VALUES ('Pacific/Samoa');
INSERT INTO public.time_zones VALUES ('Pacific/Majuro');
INSERT INTO public.time_zones VALUES ('Pacific/Niue');
INSERT INTO public.time_zones VALUES ('Pacific/Easter');
INSERT INTO public.time_zones VALUES ('Pacific/Nauru');
INSERT INTO public.time_zones VALUES ('Pacific/Truk');
INSERT INTO public.time_zones VALUES ('Pacific/Port_Moresby');
INSERT INTO public.time_zones VALUES ('Pacific/Palau');
INSERT INTO public.time_zones VALUES ('Pacific/Norfolk');
INSERT INTO public.time_zones VALUES ('Pacific/Pohnpei');
INSERT INTO public.time_zones VALUES ('Pacific/Tahiti');
INSERT INTO public.time_zones VALUES ('MST');
INSERT INTO public.time_zones VALUES ('EET');
INSERT INTO public.time_zones VALUES ('HST');
INSERT INTO public.time_zones VALUES ('NZ-CHAT');
INSERT INTO public.time_zones VALUES ('Indian/Mauritius');
INSERT INTO public.time_zones VALUES ('Indian/Mayotte');
INSERT INTO public.time_zones VALUES ('Indian/Comoro');
INSERT INTO public.time_zones VALUES ('Indian/Cocos');
INSERT INTO public.time_zones VALUES ('Indian/Christmas');
INSERT INTO public.time_zones VALUES ('Indian/Mahe');
INSERT INTO public.time_zones VALUES ('Indian/Chagos');
INSERT INTO public.time_zones VALUES ('Indian/Antananarivo');
INSERT INTO public.time_zones VALUES ('Indian/Maldives');
INSERT INTO public.time_zones VALUES ('Indian/Reunion');
INSERT INTO public.time_zones VALUES ('Indian/Kerguelen');
INSERT INTO public.time_zones VALUES ('Universal');
INSERT INTO public.time_zones VALUES ('EST5EDT');
INSERT INTO public.time_zones VALUES ('Jamaica');
INSERT INTO public.time_zones VALUES ('Portugal');
INSERT INTO public.time_zones VALUES ('Atlantic/South_Georgia');
INSERT INTO public.time_zones VALUES ('Atlantic/Faroe');
INSERT INTO public.time_zones VALUES ('Atlantic/St_Helena');
INSERT INTO public.time_zones VALUES ('Atlantic/Jan_Mayen');
INSERT INTO public.time_zones VALUES ('Atlantic/Cape_Verde');
INSERT INTO public.time_zones VALUES ('Atlantic/Azores');
INSERT INTO public.time_zones VALUES ('Atlantic/Madeira');
INSERT INTO public.time_zones VALUES ('Atlantic/Canary');
INSERT INTO public.time_zones VALUES ('Atlantic/Bermuda');
INSERT INTO public.time_zones VALUES ('Atlantic/Faeroe');
INSERT INTO public.time_zones VALUES ('Atlantic/Reykjavik');
INSERT INTO public.time_zones VALUES ('Atlantic/Stanley');
INSERT INTO public.time_zones VALUES ('UTC');
INSERT INTO public.time_zones VALUES ('Kwajalein');
INSERT INTO public.time_zones VALUES ('EST');
INSERT INTO public.time_zones VALUES ('Cuba');
INSERT INTO public.time_zones VALUES ('Hongkong');
INSERT INTO public.time_zones VALUES ('Canada/Pacific');
INSERT INTO public.time_zones VALUES ('Canada/Saskatchewan');
INSERT INTO public.time_zones VALUES ('Canada/Atlantic');
INSERT INTO public.time_zones VALUES ('Canada/Newfoundland');
INSERT INTO public.time_zones VALUES ('Canada/Yukon');
INSERT INTO public.time_zones VALUES ('Canada/Eastern');
INSERT INTO public.time_zones VALUES ('Canada/Mountain');
INSERT INTO public.time_zones VALUES ('Canada/Central');
INSERT INTO public.time_zones VALUES ('UCT');
INSERT INTO public.time_zones VALUES ('GMT-0');
INSERT INTO public.time_zones VALUES ('GB');
INSERT INTO public.time_zones VALUES ('Turkey');
INSERT INTO public.time_zones VALUES ('ROC');
INSERT INTO public.time_zones VALUES ('Mexico/General');
INSERT INTO public.time_zones VALUES ('Mexico/BajaNorte');
INSERT INTO public.time_zones VALUES ('Mexico/BajaSur');
INSERT INTO public.time_zones VALUES ('Brazil/West');
INSERT INTO public.time_zones VALUES ('Brazil/DeNoronha');
INSERT INTO public.time_zones VALUES ('Brazil/East');
INSERT INTO public.time_zones VALUES ('Brazil/Acre');
INSERT INTO public.time_zones VALUES ('Libya');
INSERT INTO public.time_zones VALUES ('Asia/Aqtau');
INSERT INTO public.time_zones VALUES ('Asia/Karachi');
INSERT INTO public.time_zones VALUES ('Asia/Irkutsk');
INSERT INTO public.time_zones VALUES ('Asia/Yerevan');
INSERT INTO public.time_zones VALUES ('Asia/Kuala_Lumpur');
INSERT INTO public.time_zones VALUES ('Asia/Kashgar');
INSERT INTO public.time_zones VALUES ('Asia/Qyzylorda');
INSERT INTO public.time_zones VALUES ('Asia/Dushanbe');
INSERT INTO public.time_zones VALUES ('Asia/Ashkhabad');
INSERT INTO public.time_zones VALUES ('Asia/Calcutta');
INSERT INTO public.time_zones VALUES ('Asia/Krasnoyarsk');
INSERT INTO public.time_zones VALUES ('Asia/Gaza');
INSERT INTO public.time_zones VALUES ('Asia/Brunei');
INSERT INTO public.time_zones VALUES ('Asia/Dacca');
INSERT INTO public.time_zones VALUES ('Asia/Harbin');
INSERT INTO public.time_zones VALUES ('Asia/Istanbul');
INSERT INTO public.time_zones VALUES ('Asia/Amman');
INSERT INTO public.time_zones VALUES ('Asia/Taipei');
INSERT INTO public.time_zones VALUES ('Asia/Ho_Chi_Minh');
INSERT INTO public.time_zones VALUES ('Asia/Rangoon');
INSERT INTO public.time_zones VALUES ('Asia/Damascus');
INSERT INTO public.time_zones VALUES ('Asia/Qatar');
INSERT INTO public.time_zones VALUES ('Asia/Ust-Nera');
INSERT INTO public.time_zones VALUES ('Asia/Urumqi');
INSERT INTO public.time_zones VALUES ('Asia/Kuwait');
INSERT INTO public.time_zones VALUES ('Asia/Hovd');
INSERT INTO public.time_zones VALUES ('Asia/Tokyo');
INSERT INTO public.time_zones VALUES ('Asia/Ashgabat');
INSERT INTO public.time_zones VALUES ('Asia/Aqtobe');
INSERT INTO public.time_zones VALUES ('Asia/Thimphu');
INSERT INTO public.time_zones VALUES ('Asia/Muscat');
INSERT INTO public.time_zones VALUES ('Asia/Macao');
INSERT INTO public.time_zones VALUES ('Asia/Manila');
INSERT INTO public.time_zones VALUES ('Asia/Pyongyang');
INSERT INTO public.time_zones VALUES ('Asia/Ujung_Pandang');
INSERT INTO public.time_zones VALUES ('Asia/Choibalsan');
INSERT INTO public.time_zones VALUES ('Asia/Chungking');
INSERT INTO public.time_zones VALUES ('Asia/Chita');
INSERT INTO public.time_zones VALUES ('Asia/Oral');
INSERT INTO public.time_zones VALUES ('Asia/Omsk');
INSERT INTO public.time_zones VALUES ('Asia/Riyadh');
INSERT INTO public.time_zones VALUES ('Asia/Macau');
INSERT INTO public.time_zones VALUES ('Asia/Nicosia');
INSERT INTO public.time_zones VALUES ('Asia/Thimbu');
INSERT INTO public.time_zones VALUES ('Asia/Ulaanbaatar');
INSERT INTO public.time_zones VALUES ('Asia/Colombo');
INSERT INTO public.time_zones VALUES ('Asia/Saigon');
INSERT INTO public.time_zones VALUES ('Asia/Novokuznetsk');
INSERT INTO public.time_zones VALUES ('Asia/Katmandu');
INSERT INTO public.time_zones VALUES ('Asia/Bishkek');
INSERT INTO public.time_zones VALUES ('Asia/Bangkok');
INSERT INTO public.time_zones VALUES ('Asia/Shanghai');
INSERT INTO public.time_zones VALUES ('Asia/Atyrau');
INSERT INTO public.time_zones VALUES ('Asia/Beirut');
INSERT INTO public.time_zones VALUES ('Asia/Hong_Kong');
INSERT INTO public.time_zones VALUES ('Asia/Baku');
INSERT INTO public.time_zones VALUES ('Asia/Kabul');
INSERT INTO public.time_zones VALUES ('Asia/Anadyr');
INSERT INTO public.time_zones VALUES ('Asia/Qostanay');
INSERT INTO public.time_zones VALUES ('Asia/Vladivostok');
INSERT INTO public.time_zones VALUES ('Asia/Almaty');
INSERT INTO public.time_zones VALUES ('Asia/Yekaterinburg');
INSERT INTO public.time_zones VALUES ('Asia/Novosibirsk');
INSERT INTO public.time_zones VALUES ('Asia/Tomsk');
INSERT INTO public.time_zones VALUES ('Asia/Kathmandu');
INSERT INTO public.time_zones VALUES ('Asia/Samarkand');
INSERT INTO public.time_zones VALUES ('Asia/Kuching');
INSERT INTO public.time_zones VALUES ('Asia/Famagusta');
INSERT INTO public.time_zones VALUES ('Asia/Hebron');
INSERT INTO public.time_zones VALUES ('Asia/Tel_Aviv');
INSERT INTO public.time_zones VALUES ('Asia/Tbilisi');
INSERT INTO public.time_zones VALUES ('Asia/Ulan_Bator');
INSERT INTO public.time_zones VALUES ('Asia/Kolkata');
INSERT INTO public.time_zones VALUES ('Asia/Dubai');
INSERT INTO public.time_zones VALUES ('Asia/Pontianak');
INSERT INTO public.time_zones VALUES ('Asia/Dhaka');
INSERT INTO public.time_zones VALUES ('Asia/Kamchatka');
INSERT INTO public.time_zones VALUES ('Asia/Yangon');
INSERT INTO public.time_zones VALUES ('Asia/Seoul');
INSERT INTO public.time_zones VALUES ('Asia/Tehran');
INSERT INTO public.time_zones VALUES ('Asia/Yakutsk');
INSERT INTO public.time_zones VALUES ('Asia/Jayapura');
INSERT INTO public.time_zones VALUES ('Asia/Aden');
INSERT INTO public.time_zones VALUES ('Asia/Jakarta');
INSERT INTO public.time_zones VALUES ('Asia/Dili');
INSERT INTO public.time_zones VALUES ('Asia/Bahrain');
INSERT INTO public.time_zones VALUES ('Asia/Jerusalem');
INSERT INTO public.time_zones VALUES ('Asia/Sakhalin');
INSERT INTO public.time_zones VALUES ('Asia/Barnaul');
INSERT INTO public.time_zones VALUES ('Asia/Khandyga');
INSERT INTO public.time_zones VALUES ('Asia/Magadan');
INSERT INTO public.time_zones VALUES ('Asia/Srednekolymsk');
INSERT INTO public.time_zones VALUES ('Asia/Makassar');
INSERT INTO public.time_zones VALUES ('Asia/Phnom_Penh');
INSERT INTO public.time_zones VALUES ('Asia/Tashkent');
INSERT INTO public.time_zones VALUES ('Asia/Singapore');
INSERT INTO public.time_zones VALUES ('Asia/Chongqing');
INSERT INTO public.time_zones VALUES ('Asia/Baghdad');
INSERT INTO public.time_zones VALUES ('Asia/Vientiane');
INSERT INTO public.time_zones VALUES ('W-SU');
INSERT INTO public.time_zones VALUES ('Iran');
INSERT INTO public.time_zones VALUES ('Eire');
INSERT INTO public.time_zones VALUES ('Australia/Victoria');
INSERT INTO public.time_zones VALUES ('Australia/Canberra');
INSERT INTO public.time_zones VALUES ('Australia/Lindeman');
INSERT INTO public.time_zones VALUES ('Australia/Darwin');
INSERT INTO public.time_zones VALUES ('Australia/LHI');
INSERT INTO public.time_zones VALUES ('Australia/Melbourne');
INSERT INTO public.time_zones VALUES ('Australia/West');
INSERT INTO public.time_zones VALUES ('Australia/Hobart');
INSERT INTO public.time_zones VALUES ('Australia/Sydney');
INSERT INTO public.time_zones VALUES ('Australia/Perth');
INSERT INTO public.time_zones VALUES ('Australia/Lord_Howe');
INSERT INTO public.time_zones VALUES ('Australia/Currie');
INSERT INTO public.time_zones VALUES ('Australia/Queensland');
INSERT INTO public.time_zones VALUES ('Australia/Yancowinna');
INSERT INTO public.time_zones VALUES ('Australia/Brisbane');
INSERT INTO public.time_zones VALUES ('Australia/Tasmania');
INSERT INTO public.time_zones VALUES ('Australia/NSW');
INSERT INTO public.time_zones VALUES ('Australia/Adelaide');
INSERT INTO public.time_zones VALUES ('Australia/North');
INSERT INTO public.time_zones VALUES ('Australia/ACT');
INSERT INTO public.time_zones VALUES ('Australia/Eucla');
INSERT INTO public.time_zones VALUES ('Australia/South');
INSERT INTO public.time_zones VALUES ('Australia/Broken_Hill');
INSERT INTO public.time_zones VALUES ('Arctic/Longyearbyen');
INSERT INTO public.time_zones VALUES ('Egypt');
INSERT INTO public.time_zones VALUES ('Navajo');
INSERT INTO public.time_zones VALUES ('Israel');
INSERT INTO public.time_zones VALUES ('Europe/Riga');
INSERT INTO public.time_zones VALUES ('Europe/Belgrade');
INSERT INTO public.time_zones VALUES ('Europe/Podgorica');
INSERT INTO public.time_zones VALUES ('Europe/Sarajevo');
INSERT INTO public.time_zones VALUES ('Europe/Vaduz');
INSERT INTO public.time_zones VALUES ('Europe/Brussels');
INSERT INTO public.time_zones VALUES ('Europe/Istanbul');
INSERT INTO public.time_zones VALUES ('Europe/Simferopol');
INSERT INTO public.time_zones VALUES ('Europe/Rome');
INSERT INTO public.time_zones VALUES ('Europe/Berlin');
INSERT INTO public.time_zones VALUES ('Europe/Isle_of_Man');
INSERT INTO public.time_zones VALUES ('Europe/Kirov');
INSERT INTO public.time_zones VALUES ('Europe/Prague');
INSERT INTO public.time_zones VALUES ('Europe/Kyiv');
INSERT INTO public.time_zones VALUES ('Europe/Dublin');
INSERT INTO public.time_zones VALUES ('Europe/Bratislava');
INSERT INTO public.time_zones VALUES ('Europe/Mariehamn');
INSERT INTO public.time_zones VALUES ('Europe/Ulyanovsk');
INSERT INTO public.time_zones VALUES ('Europe/Oslo');
INSERT INTO public.time_zones VALUES ('Europe/Tiraspol');
INSERT INTO public.time_zones VALUES ('Europe/Amsterdam');
INSERT INTO public.time_zones VALUES ('Europe/Madrid');
INSERT INTO public.time_zones VALUES ('Europe/Uzhgorod');
INSERT INTO public.time_zones VALUES ('Europe/Zurich');
INSERT INTO public.time_zones VALUES ('Europe/Minsk');
INSERT INTO public.time_zones VALUES ('Europe/Kiev');
INSERT INTO public.time_zones VALUES ('Europe/Saratov');
INSERT INTO public.time_zones VALUES ('Europe/Monaco');
INSERT INTO public.time_zones VALUES ('Europe/Ljubljana');
INSERT INTO public.time_zones VALUES ('Europe/Nicosia');
INSERT INTO public.time_zones VALUES ('Europe/Budapest');
INSERT INTO public.time_zones VALUES ('Europe/Zaporozhye');
INSERT INTO public.time_zones VALUES ('Europe/Astrakhan');
INSERT INTO public.time_zones VALUES ('Europe/Helsinki');
INSERT INTO public.time_zones VALUES ('Europe/Vienna');
INSERT INTO public.time_zones VALUES ('Europe/Zagreb');
INSERT INTO public.time_zones VALUES ('Europe/Vatican');
INSERT INTO public.time_zones VALUES ('Europe/San_Marino');
INSERT INTO public.time_zones VALUES ('Europe/Jersey');
INSERT INTO public.time_zones VALUES ('Europe/Belfast');
INSERT INTO public.time_zones VALUES ('Europe/Moscow');
INSERT INTO public.time_zones VALUES ('Europe/Busingen');
INSERT INTO public.time_zones VALUES ('Europe/Guernsey');
INSERT INTO public.time_zones VALUES ('Europe/Lisbon');
INSERT INTO public.time_zones VALUES ('Europe/Chisinau');
INSERT INTO public.time_zones VALUES ('Europe/Skopje');
INSERT INTO public.time_zones VALUES ('Europe/Stockholm');
INSERT INTO public.time_zones VALUES ('Europe/Tallinn');
INSERT INTO public.time_zones VALUES ('Europe/Gibraltar');
INSERT INTO public.time_zones VALUES ('Europe/Vilnius');
INSERT INTO public.time_zones VALUES ('Europe/Tirane');
INSERT INTO public.time_zones VALUES ('Europe/Samara');
INSERT INTO public.time_zones VALUES ('Europe/Sofia');
INSERT INTO public.time_zones VALUES ('Europe/Copenhagen');
INSERT INTO public.time_zones VALUES ('Europe/Kaliningrad');
INSERT INTO public.time_zones VALUES ('Europe/Volgograd');
INSERT INTO public.time_zones VALUES ('Europe/Bucharest');
INSERT INTO public.time_zones VALUES ('Europe/Andorra');
INSERT INTO public.time_zones VALUES ('Europe/Luxembourg');
INSERT INTO public.time_zones VALUES ('Europe/Athens');
INSERT INTO public.time_zones VALUES ('Europe/Warsaw');
INSERT INTO public.time_zones VALUES ('Europe/Paris');
INSERT INTO public.time_zones VALUES ('Europe/Malta');
INSERT INTO public.time_zones VALUES ('Europe/London');
INSERT INTO public.time_zones VALUES ('Japan');
INSERT INTO public.time_zones VALUES ('GMT0');
INSERT INTO public.time_zones VALUES ('MET');
INSERT INTO public.time_zones VALUES ('Iceland');
INSERT INTO public.time_zones VALUES ('GMT');
INSERT INTO public.time_zones VALUES ('GMT+0');
INSERT INTO public.time_zones VALUES ('Greenwich');
INSERT INTO public.time_zones VALUES ('Chile/Continental');
INSERT INTO public.time_zones VALUES ('Chile/EasterIsland');
INSERT INTO public.time_zones VALUES ('Antarctica/Troll');
INSERT INTO public.time_zones VALUES ('Antarctica/Casey');
INSERT INTO public.time_zones VALUES ('Antarctica/McMurdo');
INSERT INTO public.time_zones VALUES ('Antarctica/Vostok');
INSERT INTO public.time_zones VALUES ('Antarctica/South_Pole');
INSERT INTO public.time_zones VALUES ('Antarctica/Mawson');
INSERT INTO public.time_zones VALUES ('Antarctica/DumontDUrville');
INSERT INTO public.time_zones VALUES ('Antarctica/Palmer');
INSERT INTO public.time_zones VALUES ('Antarctica/Syowa');
INSERT INTO public.time_zones VALUES ('Antarctica/Rothera');
INSERT INTO public.time_zones VALUES ('Antarctica/Davis');
INSERT INTO public.time_zones VALUES ('Antarctica/Macquarie');
INSERT INTO public.time_zones VALUES ('Zulu');
INSERT INTO public.time_zones VALUES ('CST6CDT');
INSERT INTO public.time_zones VALUES ('Etc/GMT+8');
INSERT INTO public.time_zones VALUES ('Etc/Universal');
INSERT INTO public.time_zones VALUES ('Etc/GMT-6');
INSERT INTO public.time_zones VALUES ('Etc/UTC');
INSERT INTO public.time_zones VALUES ('Etc/UCT');
INSERT INTO public.time_zones VALUES ('Etc/GMT-0');
INSERT INTO public.time_zones VALUES ('Etc/GMT+10');
INSERT INTO public.time_zones VALUES ('Etc/GMT+2');
INSERT INTO public.time_zones VALUES ('Etc/GMT+4');
INSERT INTO public.time_zones VALUES ('Etc/GMT+7');
INSERT INTO public.time_zones VALUES ('Etc/GMT-4');
INSERT INTO public.time_zones VALUES ('Etc/GMT+1');
INSERT INTO public.time_zones VALUES ('Etc/GMT-3');
INSERT INTO public.time_zones VALUES ('Etc/GMT-10');
INSERT INTO public.time_zones VALUES ('Etc/GMT-8');
INSERT INTO public.time_zones VALUES ('Etc/GMT0');
INSERT INTO public.time_zones VALUES ('Etc/GMT-5');
INSERT INTO public.time_zones VALUES ('Etc/GMT');
INSERT INTO public.time_zones VALUES ('Etc/GMT+0');
INSERT INTO public.time_zones VALUES ('Etc/Greenwich');
INSERT INTO public.time_zones VALUES ('Etc/GMT+11');
INSERT INTO public.time_zones VALUES ('Etc/Zulu');
INSERT INTO public.time_zones VALUES ('Etc/GMT+12');
INSERT INTO public.time_zones VALUES ('Etc/GMT-13');
INSERT INTO public.time_zones VALUES ('Etc/GMT-9');
INSERT INTO public.time_zones VALUES ('Etc/GMT+5');
INSERT INTO public.time_zones VALUES ('Etc/GMT+3');
INSERT INTO public.time_zones VALUES ('Etc/GMT-1');
INSERT INTO public.time_zones VALUES ('Etc/GMT-14');
INSERT INTO public.time_zones VALUES ('Etc/GMT-2');
INSERT INTO public.time_zones VALUES ('Etc/GMT-7');
INSERT INTO public.time_zones VALUES ('Etc/GMT-12');
INSERT INTO public.time_zones VALUES ('Etc/GMT+9');
INSERT INTO public.time_zones VALUES ('Etc/GMT+6');
INSERT INTO public.time_zones VALUES ('Etc/GMT-11');
INSERT INTO public.time_zones VALUES ('MST7MDT');
INSERT INTO public.time_zones VALUES ('NZ');
INSERT INTO public.time_zones VALUES ('GB-Eire');
INSERT INTO public.time_zones VALUES ('America/Fort_Wayne');
INSERT INTO public.time_zones VALUES ('America/Guyana');
INSERT INTO public.time_zones VALUES ('America/Montevideo');
INSERT INTO public.time_zones VALUES ('America/Manaus');
INSERT INTO public.time_zones VALUES ('America/St_Kitts');
INSERT INTO public.time_zones VALUES ('America/Shiprock');
INSERT INTO public.time_zones VALUES ('America/Guadeloupe');
INSERT INTO public.time_zones VALUES ('America/Sao_Paulo');
INSERT INTO public.time_zones VALUES ('America/Godthab');
INSERT INTO public.time_zones VALUES ('America/Tortola');
INSERT INTO public.time_zones VALUES ('America/Coyhaique');
INSERT INTO public.time_zones VALUES ('America/Curacao');
INSERT INTO public.time_zones VALUES ('America/Ensenada');
INSERT INTO public.time_zones VALUES ('America/Jamaica');
INSERT INTO public.time_zones VALUES ('America/Managua');
INSERT INTO public.time_zones VALUES ('America/Miquelon');
INSERT INTO public.time_zones VALUES ('America/La_Paz');
INSERT INTO public.time_zones VALUES ('America/Chihuahua');
INSERT INTO public.time_zones VALUES ('America/Detroit');
INSERT INTO public.time_zones VALUES ('America/Winnipeg');
INSERT INTO public.time_zones VALUES ('America/Indiana/Indianapolis');
INSERT INTO public.time_zones VALUES ('America/Indiana/Petersburg');
INSERT INTO public.time_zones VALUES ('America/Indiana/Tell_City');
INSERT INTO public.time_zones VALUES ('America/Indiana/Winamac');
INSERT INTO public.time_zones VALUES ('America/Indiana/Marengo');
INSERT INTO public.time_zones VALUES ('America/Indiana/Vevay');
INSERT INTO public.time_zones VALUES ('America/Indiana/Vincennes');
INSERT INTO public.time_zones VALUES ('America/Indiana/Knox');
INSERT INTO public.time_zones VALUES ('America/Port_of_Spain');
INSERT INTO public.time_zones VALUES ('America/Port-au-Prince');
INSERT INTO public.time_zones VALUES ('America/New_York');
INSERT INTO public.time_zones VALUES ('America/Grand_Turk');
INSERT INTO public.time_zones VALUES ('America/St_Vincent');
INSERT INTO public.time_zones VALUES ('America/Danmarkshavn');
INSERT INTO public.time_zones VALUES ('America/Coral_Harbour');
INSERT INTO public.time_zones VALUES ('America/Eirunepe');
INSERT INTO public.time_zones VALUES ('America/Indianapolis');
INSERT INTO public.time_zones VALUES ('America/Hermosillo');
INSERT INTO public.time_zones VALUES ('America/Los_Angeles');
INSERT INTO public.time_zones VALUES ('America/Mazatlan');
INSERT INTO public.time_zones VALUES ('America/Vancouver');
INSERT INTO public.time_zones VALUES ('America/Regina');
INSERT INTO public.time_zones VALUES ('America/Guayaquil');
INSERT INTO public.time_zones VALUES ('America/Adak');
INSERT INTO public.time_zones VALUES ('America/Metlakatla');
INSERT INTO public.time_zones VALUES ('America/Marigot');
INSERT INTO public.time_zones VALUES ('America/Cayenne');
INSERT INTO public.time_zones VALUES ('America/Porto_Velho');
INSERT INTO public.time_zones VALUES ('America/Guatemala');
INSERT INTO public.time_zones VALUES ('America/Panama');
INSERT INTO public.time_zones VALUES ('America/Thunder_Bay');
INSERT INTO public.time_zones VALUES ('America/Belem');
INSERT INTO public.time_zones VALUES ('America/Fort_Nelson');
INSERT INTO public.time_zones VALUES ('America/Araguaina');
INSERT INTO public.time_zones VALUES ('America/Aruba');
INSERT INTO public.time_zones VALUES ('America/Cordoba');
INSERT INTO public.time_zones VALUES ('America/Caracas');
INSERT INTO public.time_zones VALUES ('America/Moncton');
INSERT INTO public.time_zones VALUES ('America/Yakutat');
INSERT INTO public.time_zones VALUES ('America/Punta_Arenas');
INSERT INTO public.time_zones VALUES ('America/Denver');
INSERT INTO public.time_zones VALUES ('America/Nipigon');
INSERT INTO public.time_zones VALUES ('America/Tijuana');
INSERT INTO public.time_zones VALUES ('America/Boa_Vista');
INSERT INTO public.time_zones VALUES ('America/Asuncion');
INSERT INTO public.time_zones VALUES ('America/Iqaluit');
INSERT INTO public.time_zones VALUES ('America/North_Dakota/Center');
INSERT INTO public.time_zones VALUES ('America/North_Dakota/New_Salem');
INSERT INTO public.time_zones VALUES ('America/North_Dakota/Beulah');
INSERT INTO public.time_zones VALUES ('America/St_Lucia');
INSERT INTO public.time_zones VALUES ('America/Dominica');
INSERT INTO public.time_zones VALUES ('America/Bogota');
INSERT INTO public.time_zones VALUES ('America/Atka');
INSERT INTO public.time_zones VALUES ('America/Cuiaba');
INSERT INTO public.time_zones VALUES ('America/Chicago');
INSERT INTO public.time_zones VALUES ('America/Havana');
INSERT INTO public.time_zones VALUES ('America/Kentucky/Louisville');
INSERT INTO public.time_zones VALUES ('America/Kentucky/Monticello');
INSERT INTO public.time_zones VALUES ('America/Rainy_River');
INSERT INTO public.time_zones VALUES ('America/Campo_Grande');
INSERT INTO public.time_zones VALUES ('America/Santa_Isabel');
INSERT INTO public.time_zones VALUES ('America/Nassau');
INSERT INTO public.time_zones VALUES ('America/Jujuy');
INSERT INTO public.time_zones VALUES ('America/Atikokan');
INSERT INTO public.time_zones VALUES ('America/Rio_Branco');
INSERT INTO public.time_zones VALUES ('America/Ciudad_Juarez');
INSERT INTO public.time_zones VALUES ('America/Santarem');
INSERT INTO public.time_zones VALUES ('America/Phoenix');
INSERT INTO public.time_zones VALUES ('America/Santo_Domingo');
INSERT INTO public.time_zones VALUES ('America/Noronha');
INSERT INTO public.time_zones VALUES ('America/Swift_Current');
INSERT INTO public.time_zones VALUES ('America/Toronto');
INSERT INTO public.time_zones VALUES ('America/Louisville');
INSERT INTO public.time_zones VALUES ('America/Virgin');
INSERT INTO public.time_zones VALUES ('America/Kralendijk');
INSERT INTO public.time_zones VALUES ('America/Creston');
INSERT INTO public.time_zones VALUES ('America/Menominee');
INSERT INTO public.time_zones VALUES ('America/Puerto_Rico');
INSERT INTO public.time_zones VALUES ('America/Thule');
INSERT INTO public.time_zones VALUES ('America/Bahia');
INSERT INTO public.time_zones VALUES ('America/Glace_Bay');
INSERT INTO public.time_zones VALUES ('America/Antigua');
INSERT INTO public.time_zones VALUES ('America/Matamoros');
INSERT INTO public.time_zones VALUES ('America/Boise');
INSERT INTO public.time_zones VALUES ('America/Sitka');
INSERT INTO public.time_zones VALUES ('America/Argentina/Rio_Gallegos');
INSERT INTO public.time_zones VALUES ('America/Argentina/Tucuman');
INSERT INTO public.time_zones VALUES ('America/Argentina/Salta');
INSERT INTO public.time_zones VALUES ('America/Argentina/San_Luis');
INSERT INTO public.time_zones VALUES ('America/Argentina/Cordoba');
INSERT INTO public.time_zones VALUES ('America/Argentina/San_Juan');
INSERT INTO public.time_zones VALUES ('America/Argentina/La_Rioja');
INSERT INTO public.time_zones VALUES ('America/Argentina/Jujuy');
INSERT INTO public.time_zones VALUES ('America/Argentina/Ushuaia');
INSERT INTO public.time_zones VALUES ('America/Argentina/Buenos_Aires');
INSERT INTO public.time_zones VALUES ('America/Argentina/ComodRivadavia');
INSERT INTO public.time_zones VALUES ('America/Argentina/Catamarca');
INSERT INTO public.time_zones VALUES ('America/Argentina/Mendoza');
INSERT INTO public.time_zones VALUES ('America/Costa_Rica');
INSERT INTO public.time_zones VALUES ('America/Anguilla');
INSERT INTO public.time_zones VALUES ('America/Lima');
INSERT INTO public.time_zones VALUES ('America/Porto_Acre');
INSERT INTO public.time_zones VALUES ('America/Dawson_Creek');
INSERT INTO public.time_zones VALUES ('America/Resolute');
INSERT INTO public.time_zones VALUES ('America/Buenos_Aires');
INSERT INTO public.time_zones VALUES ('America/Blanc-Sablon');
INSERT INTO public.time_zones VALUES ('America/Halifax');
INSERT INTO public.time_zones VALUES ('America/Fortaleza');
INSERT INTO public.time_zones VALUES ('America/St_Johns');
INSERT INTO public.time_zones VALUES ('America/Bahia_Banderas');
INSERT INTO public.time_zones VALUES ('America/Nuuk');
INSERT INTO public.time_zones VALUES ('America/Cambridge_Bay');
INSERT INTO public.time_zones VALUES ('America/Inuvik');
INSERT INTO public.time_zones VALUES ('America/Cancun');
INSERT INTO public.time_zones VALUES ('America/Edmonton');
INSERT INTO public.time_zones VALUES ('America/Scoresbysund');
INSERT INTO public.time_zones VALUES ('America/Rankin_Inlet');
INSERT INTO public.time_zones VALUES ('America/Santiago');
INSERT INTO public.time_zones VALUES ('America/Belize');
INSERT INTO public.time_zones VALUES ('America/Rosario');
INSERT INTO public.time_zones VALUES ('America/Catamarca');
INSERT INTO public.time_zones VALUES ('America/Anchorage');
INSERT INTO public.time_zones VALUES ('America/Yellowknife');
INSERT INTO public.time_zones VALUES ('America/Lower_Princes');
INSERT INTO public.time_zones VALUES ('America/Grenada');
INSERT INTO public.time_zones VALUES ('America/Knox_IN');
INSERT INTO public.time_zones VALUES ('America/Ojinaga');
INSERT INTO public.time_zones VALUES ('America/Goose_Bay');
INSERT INTO public.time_zones VALUES ('America/Mexico_City');
INSERT INTO public.time_zones VALUES ('America/Montreal');
INSERT INTO public.time_zones VALUES ('America/Paramaribo');
INSERT INTO public.time_zones VALUES ('America/Dawson');
INSERT INTO public.time_zones VALUES ('America/Nome');
INSERT INTO public.time_zones VALUES ('America/Pangnirtung');
INSERT INTO public.time_zones VALUES ('America/Martinique');
INSERT INTO public.time_zones VALUES ('America/Recife');
INSERT INTO public.time_zones VALUES ('America/Merida');
INSERT INTO public.time_zones VALUES ('America/Cayman');
INSERT INTO public.time_zones VALUES ('America/Maceio');
INSERT INTO public.time_zones VALUES ('America/Whitehorse');
INSERT INTO public.time_zones VALUES ('America/Mendoza');
INSERT INTO public.time_zones VALUES ('America/Montserrat');
INSERT INTO public.time_zones VALUES ('America/El_Salvador');
INSERT INTO public.time_zones VALUES ('America/Juneau');
INSERT INTO public.time_zones VALUES ('America/Monterrey');
INSERT INTO public.time_zones VALUES ('America/Tegucigalpa');
INSERT INTO public.time_zones VALUES ('America/St_Thomas');
INSERT INTO public.time_zones VALUES ('America/St_Barthelemy');
INSERT INTO public.time_zones VALUES ('America/Barbados');
INSERT INTO public.time_zones VALUES ('Poland');
INSERT INTO public.time_zones VALUES ('Africa/Sao_Tome');
INSERT INTO public.time_zones VALUES ('Africa/Bamako');
INSERT INTO public.time_zones VALUES ('Africa/Mogadishu');
INSERT INTO public.time_zones VALUES ('Africa/Malabo');
INSERT INTO public.time_zones VALUES ('Africa/Cairo');
INSERT INTO public.time_zones VALUES ('Africa/Mbabane');
INSERT INTO public.time_zones VALUES ('Africa/Harare');
INSERT INTO public.time_zones VALUES ('Africa/Addis_Ababa');
INSERT INTO public.time_zones VALUES ('Africa/Gaborone');
INSERT INTO public.time_zones VALUES ('Africa/Nairobi');
INSERT INTO public.time_zones VALUES ('Africa/Lusaka');
INSERT INTO public.time_zones VALUES ('Africa/Johannesburg');
INSERT INTO public.time_zones VALUES ('Africa/Douala');
INSERT INTO public.time_zones VALUES ('Africa/Porto-Novo');
INSERT INTO public.time_zones VALUES ('Africa/Kampala');
INSERT INTO public.time_zones VALUES ('Africa/Luanda');
INSERT INTO public.time_zones VALUES ('Africa/Tripoli');
INSERT INTO public.time_zones VALUES ('Africa/Lagos');
INSERT INTO public.time_zones VALUES ('Africa/Niamey');
INSERT INTO public.time_zones VALUES ('Africa/Lubumbashi');
INSERT INTO public.time_zones VALUES ('Africa/Monrovia');
INSERT INTO public.time_zones VALUES ('Africa/Kigali');
INSERT INTO public.time_zones VALUES ('Africa/Lome');
INSERT INTO public.time_zones VALUES ('Africa/Accra');
INSERT INTO public.time_zones VALUES ('Africa/Maputo');
INSERT INTO public.time_zones VALUES ('Africa/Maseru');
INSERT INTO public.time_zones VALUES ('Africa/Bissau');
INSERT INTO public.time_zones VALUES ('Africa/Freetown');
INSERT INTO public.time_zones VALUES ('Africa/Asmera');
INSERT INTO public.time_zones VALUES ('Africa/Bujumbura');
INSERT INTO public.time_zones VALUES ('Africa/Kinshasa');
INSERT INTO public.time_zones VALUES ('Africa/Khartoum');
INSERT INTO public.time_zones VALUES ('Africa/Brazzaville');
INSERT INTO public.time_zones VALUES ('Africa/Banjul');
INSERT INTO public.time_zones VALUES ('Africa/Juba');
INSERT INTO public.time_zones VALUES ('Africa/Abidjan');
INSERT INTO public.time_zones VALUES ('Africa/Ndjamena');
INSERT INTO public.time_zones VALUES ('Africa/Nouakchott');
INSERT INTO public.time_zones VALUES ('Africa/Algiers');
INSERT INTO public.time_zones VALUES ('Africa/Bangui');
INSERT INTO public.time_zones VALUES ('Africa/Dar_es_Salaam');
INSERT INTO public.time_zones VALUES ('Africa/Asmara');
INSERT INTO public.time_zones VALUES ('Africa/Ceuta');
INSERT INTO public.time_zones VALUES ('Africa/Timbuktu');
INSERT INTO public.time_zones VALUES ('Africa/Casablanca');
INSERT INTO public.time_zones VALUES ('Africa/Windhoek');
INSERT INTO public.time_zones VALUES ('Africa/El_Aaiun');
INSERT INTO public.time_zones VALUES ('Africa/Libreville');
INSERT INTO public.time_zones VALUES ('Africa/Blantyre');
INSERT INTO public.time_zones VALUES ('Africa/Tunis');
INSERT INTO public.time_zones VALUES ('Africa/Ouagadougou');
INSERT INTO public.time_zones VALUES ('Africa/Conakry');
INSERT INTO public.time_zones VALUES ('Africa/Djibouti');
INSERT INTO public.time_zones VALUES ('Africa/Dakar');
INSERT INTO public.time_zones VALUES ('ROK');
INSERT INTO public.time_zones VALUES ('US/Pacific');
INSERT INTO public.time_zones VALUES ('US/Arizona');
INSERT INTO public.time_zones VALUES ('US/Indiana-Starke');
INSERT INTO public.time_zones VALUES ('US/Aleutian');
INSERT INTO public.time_zones VALUES ('US/Alaska');
INSERT INTO public.time_zones VALUES ('US/Eastern');
INSERT INTO public.time_zones VALUES ('US/Hawaii');
INSERT INTO public.time_zones VALUES ('US/Mountain');
INSERT INTO public.time_zones VALUES ('US/East-Indiana');
INSERT INTO public.time_zones VALUES ('US/Michigan');
INSERT INTO public.time_zones VALUES ('US/Samoa');
INSERT INTO public.time_zones VALUES ('US/Central');
INSERT INTO public.time_zones VALUES ('PRC');
INSERT INTO public.time_zones VALUES ('Singapore');
INSERT INTO public.time_zones VALUES ('PST8PDT');


--
-- Name: breeds_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.breeds_id_seq', 72, true);


--
-- Name: buddy_meetings_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.buddy_meetings_id_seq', 1, false);


--
-- Name: buddy_pairs_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.buddy_pairs_id_seq', 1, false);


--
-- Name: friend_requests_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.friend_requests_id_seq', 1, false);


--
-- Name: habits_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.habits_id_seq', 1, false);


--
-- Name: invitations_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.invitations_id_seq', 1, false);


--
-- Name: karma_awards_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.karma_awards_id_seq', 1, false);


--
-- Name: locations_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.locations_id_seq', 1, false);


--
-- Name: notifications_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.notifications_id_seq', 1, false);


--
-- Name: pets_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.pets_id_seq', 1, false);


--
-- Name: projects_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.projects_id_seq', 1, false);


--
-- Name: rounds_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.rounds_id_seq', 1, false);


--
-- Name: scheduled_jobs_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.scheduled_jobs_id_seq', 1, false);


--
-- Name: shelters_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.shelters_id_seq', 1, false);


--
-- Name: snippets_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.snippets_id_seq', 1, false);


--
-- Name: sports_sessions_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.sports_sessions_id_seq', 1, false);


--
-- Name: users_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.users_id_seq', 1, false);


--
-- Name: auth_tokens auth_tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.auth_tokens
    ADD CONSTRAINT auth_tokens_pkey PRIMARY KEY (token_hash);


--
-- Name: breeds breeds_id_type_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.breeds
    ADD CONSTRAINT breeds_id_type_key UNIQUE (id, type);


--
-- Name: breeds breeds_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.breeds
    ADD CONSTRAINT breeds_pkey PRIMARY KEY (id);


--
-- Name: breeds breeds_type_name_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.breeds
    ADD CONSTRAINT breeds_type_name_key UNIQUE (type, name);


--
-- Name: buddy_meetings buddy_meetings_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.buddy_meetings
    ADD CONSTRAINT buddy_meetings_pkey PRIMARY KEY (id);


--
-- Name: buddy_pairs buddy_pairs_first_id_second_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.buddy_pairs
    ADD CONSTRAINT buddy_pairs_first_id_second_id_key UNIQUE (first_id, second_id);


--
-- Name: buddy_pairs buddy_pairs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.buddy_pairs
    ADD CONSTRAINT buddy_pairs_pkey PRIMARY KEY (id);


--
-- Name: buddy_scores buddy_scores_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.buddy_scores
    ADD CONSTRAINT buddy_scores_pkey PRIMARY KEY (meeting_id, scorer_id);


--
-- Name: buddy_swipes buddy_swipes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.buddy_swipes
    ADD CONSTRAINT buddy_swipes_pkey PRIMARY KEY (user_id, candidate_id);


--
-- Name: friend_requests friend_requests_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.friend_requests
    ADD CONSTRAINT friend_requests_pkey PRIMARY KEY (id);


--
-- Name: friendships friendships_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.friendships
    ADD CONSTRAINT friendships_pkey PRIMARY KEY (user_id, friend_id);


--
-- Name: habit_catalogue habit_catalogue_name_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.habit_catalogue
    ADD CONSTRAINT habit_catalogue_name_key UNIQUE (name);


--
-- Name: habit_catalogue habit_catalogue_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.habit_catalogue
    ADD CONSTRAINT habit_catalogue_pkey PRIMARY KEY (id);


--
-- Name: habit_check_ins habit_check_ins_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.habit_check_ins
    ADD CONSTRAINT habit_check_ins_pkey PRIMARY KEY (habit_id, day);


--
-- Name: habit_milestones habit_milestones_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.habit_milestones
    ADD CONSTRAINT habit_milestones_pkey PRIMARY KEY (habit_id, days);


--
-- Name: habit_profiles habit_profiles_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.habit_profiles
    ADD CONSTRAINT habit_profiles_pkey PRIMARY KEY (user_id);


--
-- Name: habits habits_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.habits
    ADD CONSTRAINT habits_pkey PRIMARY KEY (id);


--
-- Name: invitations invitations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.invitations
    ADD CONSTRAINT invitations_pkey PRIMARY KEY (id);


--
-- Name: invitations invitations_session_id_to_user_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.invitations
    ADD CONSTRAINT invitations_session_id_to_user_key UNIQUE (session_id, to_user);


--
-- Name: karma_awards karma_awards_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.karma_awards
    ADD CONSTRAINT karma_awards_pkey PRIMARY KEY (id);


--
-- Name: karma_awards karma_awards_user_id_reason_subject_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.karma_awards
    ADD CONSTRAINT karma_awards_user_id_reason_subject_id_key UNIQUE (user_id, reason, subject_id);


--
-- Name: locations locations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.locations
    ADD CONSTRAINT locations_pkey PRIMARY KEY (id);


--
-- Name: meeting_attendance meeting_attendance_no_overlap; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.meeting_attendance
    ADD CONSTRAINT meeting_attendance_no_overlap EXCLUDE USING gist (user_id WITH =, during WITH &&);


--
-- Name: meeting_attendance meeting_attendance_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.meeting_attendance
    ADD CONSTRAINT meeting_attendance_pkey PRIMARY KEY (meeting_id, user_id);


--
-- Name: meeting_checklist_items meeting_checklist_items_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.meeting_checklist_items
    ADD CONSTRAINT meeting_checklist_items_pkey PRIMARY KEY (meeting_id, "position");


--
-- Name: notification_kinds notification_kinds_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.notification_kinds
    ADD CONSTRAINT notification_kinds_pkey PRIMARY KEY (kind);


--
-- Name: notifications notifications_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.notifications
    ADD CONSTRAINT notifications_pkey PRIMARY KEY (id);


--
-- Name: pet_favorites pet_favorites_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pet_favorites
    ADD CONSTRAINT pet_favorites_pkey PRIMARY KEY (user_id, pet_id);


--
-- Name: pet_photos pet_photos_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pet_photos
    ADD CONSTRAINT pet_photos_pkey PRIMARY KEY (pet_id, "position");


--
-- Name: pet_preference_breeds pet_preference_breeds_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pet_preference_breeds
    ADD CONSTRAINT pet_preference_breeds_pkey PRIMARY KEY (user_id, breed_id);


--
-- Name: pet_preferences pet_preferences_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pet_preferences
    ADD CONSTRAINT pet_preferences_pkey PRIMARY KEY (user_id);


--
-- Name: pet_preferences pet_preferences_user_id_type_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pet_preferences
    ADD CONSTRAINT pet_preferences_user_id_type_key UNIQUE (user_id, type);


--
-- Name: pet_swipes pet_swipes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pet_swipes
    ADD CONSTRAINT pet_swipes_pkey PRIMARY KEY (user_id, pet_id);


--
-- Name: pet_type_coats pet_type_coats_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pet_type_coats
    ADD CONSTRAINT pet_type_coats_pkey PRIMARY KEY (type, coat);


--
-- Name: pet_type_colors pet_type_colors_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pet_type_colors
    ADD CONSTRAINT pet_type_colors_pkey PRIMARY KEY (type, color);


--
-- Name: pet_types pet_types_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pet_types
    ADD CONSTRAINT pet_types_pkey PRIMARY KEY (type);


--
-- Name: pet_types pet_types_position_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pet_types
    ADD CONSTRAINT pet_types_position_key UNIQUE ("position");


--
-- Name: pets pets_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pets
    ADD CONSTRAINT pets_pkey PRIMARY KEY (id);


--
-- Name: project_follows project_follows_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.project_follows
    ADD CONSTRAINT project_follows_pkey PRIMARY KEY (project_id, user_id);


--
-- Name: project_members project_members_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.project_members
    ADD CONSTRAINT project_members_pkey PRIMARY KEY (project_id, user_id);


--
-- Name: projects projects_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.projects
    ADD CONSTRAINT projects_pkey PRIMARY KEY (id);


--
-- Name: prolific_writers prolific_writers_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.prolific_writers
    ADD CONSTRAINT prolific_writers_pkey PRIMARY KEY (user_id);


--
-- Name: quiz_results quiz_results_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.quiz_results
    ADD CONSTRAINT quiz_results_pkey PRIMARY KEY (user_id);


--
-- Name: rounds rounds_id_project_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rounds
    ADD CONSTRAINT rounds_id_project_id_key UNIQUE (id, project_id);


--
-- Name: rounds rounds_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rounds
    ADD CONSTRAINT rounds_pkey PRIMARY KEY (id);


--
-- Name: rounds rounds_project_id_number_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rounds
    ADD CONSTRAINT rounds_project_id_number_key UNIQUE (project_id, number);


--
-- Name: scheduled_jobs scheduled_jobs_kind_subject_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scheduled_jobs
    ADD CONSTRAINT scheduled_jobs_kind_subject_id_key UNIQUE (kind, subject_id);


--
-- Name: scheduled_jobs scheduled_jobs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scheduled_jobs
    ADD CONSTRAINT scheduled_jobs_pkey PRIMARY KEY (id);


--
-- Name: schema_migrations schema_migrations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (version);


--
-- Name: session_players session_players_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.session_players
    ADD CONSTRAINT session_players_pkey PRIMARY KEY (session_id, user_id);


--
-- Name: shelter_staff shelter_staff_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.shelter_staff
    ADD CONSTRAINT shelter_staff_pkey PRIMARY KEY (shelter_id, user_id);


--
-- Name: shelters shelters_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.shelters
    ADD CONSTRAINT shelters_pkey PRIMARY KEY (id);


--
-- Name: snippet_results snippet_results_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.snippet_results
    ADD CONSTRAINT snippet_results_pkey PRIMARY KEY (snippet_id);


--
-- Name: snippets snippets_id_round_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.snippets
    ADD CONSTRAINT snippets_id_round_id_key UNIQUE (id, round_id);


--
-- Name: snippets snippets_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.snippets
    ADD CONSTRAINT snippets_pkey PRIMARY KEY (id);


--
-- Name: snippets snippets_round_id_author_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.snippets
    ADD CONSTRAINT snippets_round_id_author_id_key UNIQUE (round_id, author_id);


--
-- Name: sports sports_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sports
    ADD CONSTRAINT sports_pkey PRIMARY KEY (name);


--
-- Name: sports_sessions sports_sessions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sports_sessions
    ADD CONSTRAINT sports_sessions_pkey PRIMARY KEY (id);


--
-- Name: time_zones time_zones_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.time_zones
    ADD CONSTRAINT time_zones_pkey PRIMARY KEY (name);


--
-- Name: users users_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);


--
-- Name: voter_habits voter_habits_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.voter_habits
    ADD CONSTRAINT voter_habits_pkey PRIMARY KEY (voter_id, author_id);


--
-- Name: voter_rounds voter_rounds_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.voter_rounds
    ADD CONSTRAINT voter_rounds_pkey PRIMARY KEY (voter_id, round_id);


--
-- Name: votes votes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.votes
    ADD CONSTRAINT votes_pkey PRIMARY KEY (snippet_id, voter_id);


--
-- Name: auth_tokens_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX auth_tokens_user ON public.auth_tokens USING btree (user_id);


--
-- Name: buddy_meetings_buddy; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX buddy_meetings_buddy ON public.buddy_meetings USING btree (buddy_id, starts_at);


--
-- Name: buddy_meetings_organizer; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX buddy_meetings_organizer ON public.buddy_meetings USING btree (organizer_id, starts_at);


--
-- Name: buddy_pairs_second; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX buddy_pairs_second ON public.buddy_pairs USING btree (second_id, first_id);


--
-- Name: buddy_scores_scored; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX buddy_scores_scored ON public.buddy_scores USING btree (scored_id, created_at);


--
-- Name: buddy_swipes_candidate; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX buddy_swipes_candidate ON public.buddy_swipes USING btree (candidate_id, user_id) WHERE (direction = 'RIGHT'::text);


--
-- Name: friend_requests_from; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX friend_requests_from ON public.friend_requests USING btree (from_user, id);


--
-- Name: friend_requests_pair_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX friend_requests_pair_key ON public.friend_requests USING btree (LEAST(from_user, to_user), GREATEST(from_user, to_user));


--
-- Name: friend_requests_to; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX friend_requests_to ON public.friend_requests USING btree (to_user, id);


--
-- Name: habits_active_by_key; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX habits_active_by_key ON public.habits USING btree (match_key, user_id) WHERE (status = 'ACTIVE'::text);


--
-- Name: habits_one_of_each; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX habits_one_of_each ON public.habits USING btree (user_id, match_key) WHERE (status <> 'ARCHIVED'::text);


--
-- Name: habits_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX habits_user ON public.habits USING btree (user_id, id);


--
-- Name: invitations_from; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX invitations_from ON public.invitations USING btree (from_user, id);


--
-- Name: invitations_to; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX invitations_to ON public.invitations USING btree (to_user, id);


--
-- Name: locations_name_trigram; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX locations_name_trigram ON public.locations USING gin (lower(name) public.gin_trgm_ops);


--
-- Name: notifications_unread; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX notifications_unread ON public.notifications USING btree (user_id, id DESC) WHERE (read_at IS NULL);


--
-- Name: notifications_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX notifications_user ON public.notifications USING btree (user_id, id DESC);


--
-- Name: pet_favorites_order; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX pet_favorites_order ON public.pet_favorites USING btree (user_id, is_super DESC, created_at DESC, pet_id DESC);


--
-- Name: pet_favorites_pet; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX pet_favorites_pet ON public.pet_favorites USING btree (pet_id);


--
-- Name: pets_adoptable_newest; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX pets_adoptable_newest ON public.pets USING btree (published_at DESC, id DESC) WHERE (status = 'ADOPTABLE'::text);


--
-- Name: pets_adoptable_shelter; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX pets_adoptable_shelter ON public.pets USING btree (shelter_id, published_at DESC, id DESC) WHERE (status = 'ADOPTABLE'::text);


--
-- Name: pets_shelter; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX pets_shelter ON public.pets USING btree (shelter_id, published_at DESC, id DESC);


--
-- Name: project_follows_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX project_follows_user ON public.project_follows USING btree (user_id, created_at DESC, project_id DESC);


--
-- Name: project_members_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX project_members_user ON public.project_members USING btree (user_id, project_id);


--
-- Name: projects_explore; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX projects_explore ON public.projects USING btree (heat DESC, id DESC);


--
-- Name: projects_newest; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX projects_newest ON public.projects USING btree (created_at DESC, id DESC);


--
-- Name: projects_owner; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX projects_owner ON public.projects USING btree (owner_id, created_at DESC, id DESC);


--
-- Name: projects_title_trigram; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX projects_title_trigram ON public.projects USING gin (lower(title) public.gin_trgm_ops);


--
-- Name: rounds_one_open; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX rounds_one_open ON public.rounds USING btree (project_id) WHERE (completed_at IS NULL);


--
-- Name: scheduled_jobs_due; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX scheduled_jobs_due ON public.scheduled_jobs USING btree (due_at, id);


--
-- Name: session_players_by_session; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX session_players_by_session ON public.session_players USING btree (session_id, joined_at, user_id);


--
-- Name: session_players_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX session_players_user ON public.session_players USING btree (user_id, session_id);


--
-- Name: shelter_staff_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX shelter_staff_user ON public.shelter_staff USING btree (user_id, shelter_id);


--
-- Name: shelters_name; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX shelters_name ON public.shelters USING btree (lower(name), id);


--
-- Name: shelters_position; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX shelters_position ON public.shelters USING gist (public.ll_to_earth(latitude, longitude));


--
-- Name: snippet_results_round; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX snippet_results_round ON public.snippet_results USING btree (round_id);


--
-- Name: snippets_author; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX snippets_author ON public.snippets USING btree (author_id, created_at DESC, id DESC);


--
-- Name: snippets_project; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX snippets_project ON public.snippets USING btree (project_id);


--
-- Name: sports_sessions_creator; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sports_sessions_creator ON public.sports_sessions USING btree (creator_id);


--
-- Name: sports_sessions_occurs_at; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sports_sessions_occurs_at ON public.sports_sessions USING btree (occurs_at, id);


--
-- Name: sports_sessions_position; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sports_sessions_position ON public.sports_sessions USING gist (public.ll_to_earth(latitude, longitude));


--
-- Name: users_email_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX users_email_key ON public.users USING btree (lower(email));


--
-- Name: users_username_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX users_username_key ON public.users USING btree (lower(username));


--
-- Name: voter_rounds_recent; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX voter_rounds_recent ON public.voter_rounds USING btree (voter_id, completed_at DESC, round_id DESC);


--
-- Name: votes_round_voter; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX votes_round_voter ON public.votes USING btree (round_id, voter_id);


--
-- Name: votes_voter; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX votes_voter ON public.votes USING btree (voter_id, round_id);


--
-- Name: auth_tokens auth_tokens_revoked; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER auth_tokens_revoked AFTER DELETE OR UPDATE ON public.auth_tokens FOR EACH ROW EXECUTE FUNCTION public.auth_tokens_revoked();


--
-- Name: buddy_meetings buddy_meetings_attendance; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER buddy_meetings_attendance AFTER INSERT OR UPDATE OF status ON public.buddy_meetings FOR EACH ROW EXECUTE FUNCTION public.buddy_meetings_attendance();


--
-- Name: buddy_meetings buddy_meetings_check; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER buddy_meetings_check BEFORE INSERT OR UPDATE ON public.buddy_meetings FOR EACH ROW EXECUTE FUNCTION public.buddy_meetings_check();


--
-- Name: buddy_pairs buddy_pairs_check; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER buddy_pairs_check BEFORE INSERT ON public.buddy_pairs FOR EACH ROW EXECUTE FUNCTION public.buddy_pairs_check();


--
-- Name: buddy_scores buddy_scores_check; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER buddy_scores_check BEFORE INSERT OR UPDATE ON public.buddy_scores FOR EACH ROW EXECUTE FUNCTION public.buddy_scores_check();


--
-- Name: buddy_swipes buddy_swipes_match; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER buddy_swipes_match AFTER INSERT OR UPDATE OF direction ON public.buddy_swipes FOR EACH ROW WHEN ((new.direction = 'RIGHT'::text)) EXECUTE FUNCTION public.buddy_swipes_match();


--
-- Name: friend_requests friend_requests_not_friends; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER friend_requests_not_friends BEFORE INSERT ON public.friend_requests FOR EACH ROW EXECUTE FUNCTION public.friend_request_not_between_friends();


--
-- Name: habit_check_ins habit_check_ins_check; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER habit_check_ins_check BEFORE INSERT OR UPDATE ON public.habit_check_ins FOR EACH ROW EXECUTE FUNCTION public.habit_check_ins_check();


--
-- Name: habits habits_check_active; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER habits_check_active BEFORE INSERT OR UPDATE ON public.habits FOR EACH ROW EXECUTE FUNCTION public.habits_check_active();


--
-- Name: karma_awards karma_awards_total; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER karma_awards_total AFTER INSERT ON public.karma_awards FOR EACH ROW EXECUTE FUNCTION public.karma_awards_total();


--
-- Name: pet_favorites pet_favorites_check; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER pet_favorites_check BEFORE INSERT OR UPDATE ON public.pet_favorites FOR EACH ROW EXECUTE FUNCTION public.pet_favorites_check();


--
-- Name: pet_swipes pet_swipes_check; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER pet_swipes_check BEFORE INSERT OR UPDATE ON public.pet_swipes FOR EACH ROW EXECUTE FUNCTION public.pet_swipes_check();


--
-- Name: pet_swipes pet_swipes_favorite; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER pet_swipes_favorite AFTER INSERT OR UPDATE ON public.pet_swipes FOR EACH ROW EXECUTE FUNCTION public.pet_swipes_favorite();


--
-- Name: pets pets_check_staff; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER pets_check_staff BEFORE INSERT OR UPDATE ON public.pets FOR EACH ROW EXECUTE FUNCTION public.pets_check_staff();


--
-- Name: project_follows project_follows_change; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER project_follows_change AFTER INSERT OR DELETE ON public.project_follows FOR EACH ROW EXECUTE FUNCTION public.project_follows_change();


--
-- Name: projects projects_after_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER projects_after_insert AFTER INSERT ON public.projects FOR EACH ROW EXECUTE FUNCTION public.projects_after_insert();


--
-- Name: projects projects_before_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER projects_before_insert BEFORE INSERT ON public.projects FOR EACH ROW EXECUTE FUNCTION public.projects_before_insert();


--
-- Name: rounds rounds_after_end; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER rounds_after_end AFTER UPDATE OF completed_at ON public.rounds FOR EACH ROW WHEN (((old.completed_at IS NULL) AND (new.completed_at IS NOT NULL))) EXECUTE FUNCTION public.rounds_after_end();


--
-- Name: rounds rounds_before_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER rounds_before_update BEFORE UPDATE ON public.rounds FOR EACH ROW EXECUTE FUNCTION public.rounds_before_update();


--
-- Name: session_players session_players_count; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER session_players_count AFTER INSERT OR DELETE ON public.session_players FOR EACH ROW EXECUTE FUNCTION public.session_players_count();


--
-- Name: shelter_staff shelter_staff_keep_one; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER shelter_staff_keep_one AFTER DELETE ON public.shelter_staff FOR EACH ROW EXECUTE FUNCTION public.shelter_staff_keep_one();


--
-- Name: shelters shelters_changed; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER shelters_changed AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON public.shelters FOR EACH STATEMENT EXECUTE FUNCTION public.shelters_changed();


--
-- Name: snippets snippets_after_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER snippets_after_insert AFTER INSERT ON public.snippets FOR EACH ROW EXECUTE FUNCTION public.snippets_after_insert();


--
-- Name: snippets snippets_before_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER snippets_before_insert BEFORE INSERT ON public.snippets FOR EACH ROW EXECUTE FUNCTION public.snippets_before_insert();


--
-- Name: snippets snippets_immutable; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER snippets_immutable BEFORE UPDATE ON public.snippets FOR EACH ROW EXECUTE FUNCTION public.snippets_immutable();


--
-- Name: votes votes_check; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER votes_check BEFORE INSERT OR DELETE ON public.votes FOR EACH ROW EXECUTE FUNCTION public.votes_check();


--
-- Name: auth_tokens auth_tokens_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.auth_tokens
    ADD CONSTRAINT auth_tokens_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: breeds breeds_type_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.breeds
    ADD CONSTRAINT breeds_type_fkey FOREIGN KEY (type) REFERENCES public.pet_types(type);


--
-- Name: buddy_meetings buddy_meetings_buddy_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.buddy_meetings
    ADD CONSTRAINT buddy_meetings_buddy_id_fkey FOREIGN KEY (buddy_id) REFERENCES public.habit_profiles(user_id) ON DELETE CASCADE;


--
-- Name: buddy_meetings buddy_meetings_cancelled_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.buddy_meetings
    ADD CONSTRAINT buddy_meetings_cancelled_by_fkey FOREIGN KEY (cancelled_by) REFERENCES public.users(id) ON DELETE SET NULL;


--
-- Name: buddy_meetings buddy_meetings_organizer_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.buddy_meetings
    ADD CONSTRAINT buddy_meetings_organizer_id_fkey FOREIGN KEY (organizer_id) REFERENCES public.habit_profiles(user_id) ON DELETE CASCADE;


--
-- Name: buddy_meetings buddy_meetings_time_zone_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.buddy_meetings
    ADD CONSTRAINT buddy_meetings_time_zone_fkey FOREIGN KEY (time_zone) REFERENCES public.time_zones(name);


--
-- Name: buddy_pairs buddy_pairs_first_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.buddy_pairs
    ADD CONSTRAINT buddy_pairs_first_id_fkey FOREIGN KEY (first_id) REFERENCES public.habit_profiles(user_id) ON DELETE CASCADE;


--
-- Name: buddy_pairs buddy_pairs_second_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.buddy_pairs
    ADD CONSTRAINT buddy_pairs_second_id_fkey FOREIGN KEY (second_id) REFERENCES public.habit_profiles(user_id) ON DELETE CASCADE;


--
-- Name: buddy_scores buddy_scores_meeting_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.buddy_scores
    ADD CONSTRAINT buddy_scores_meeting_id_fkey FOREIGN KEY (meeting_id) REFERENCES public.buddy_meetings(id) ON DELETE CASCADE;


--
-- Name: buddy_scores buddy_scores_scored_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.buddy_scores
    ADD CONSTRAINT buddy_scores_scored_id_fkey FOREIGN KEY (scored_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: buddy_scores buddy_scores_scorer_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.buddy_scores
    ADD CONSTRAINT buddy_scores_scorer_id_fkey FOREIGN KEY (scorer_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: buddy_swipes buddy_swipes_candidate_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.buddy_swipes
    ADD CONSTRAINT buddy_swipes_candidate_id_fkey FOREIGN KEY (candidate_id) REFERENCES public.habit_profiles(user_id) ON DELETE CASCADE;


--
-- Name: buddy_swipes buddy_swipes_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.buddy_swipes
    ADD CONSTRAINT buddy_swipes_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.habit_profiles(user_id) ON DELETE CASCADE;


--
-- Name: friend_requests friend_requests_from_user_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.friend_requests
    ADD CONSTRAINT friend_requests_from_user_fkey FOREIGN KEY (from_user) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: friend_requests friend_requests_to_user_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.friend_requests
    ADD CONSTRAINT friend_requests_to_user_fkey FOREIGN KEY (to_user) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: friendships friendships_friend_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.friendships
    ADD CONSTRAINT friendships_friend_id_fkey FOREIGN KEY (friend_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: friendships friendships_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.friendships
    ADD CONSTRAINT friendships_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: habit_check_ins habit_check_ins_habit_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.habit_check_ins
    ADD CONSTRAINT habit_check_ins_habit_id_fkey FOREIGN KEY (habit_id) REFERENCES public.habits(id) ON DELETE CASCADE;


--
-- Name: habit_milestones habit_milestones_habit_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.habit_milestones
    ADD CONSTRAINT habit_milestones_habit_id_fkey FOREIGN KEY (habit_id) REFERENCES public.habits(id) ON DELETE CASCADE;


--
-- Name: habit_profiles habit_profiles_time_zone_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.habit_profiles
    ADD CONSTRAINT habit_profiles_time_zone_fkey FOREIGN KEY (time_zone) REFERENCES public.time_zones(name);


--
-- Name: habit_profiles habit_profiles_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.habit_profiles
    ADD CONSTRAINT habit_profiles_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: habits habits_catalogue_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.habits
    ADD CONSTRAINT habits_catalogue_id_fkey FOREIGN KEY (catalogue_id) REFERENCES public.habit_catalogue(id);


--
-- Name: habits habits_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.habits
    ADD CONSTRAINT habits_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.habit_profiles(user_id) ON DELETE CASCADE;


--
-- Name: invitations invitations_from_user_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.invitations
    ADD CONSTRAINT invitations_from_user_fkey FOREIGN KEY (from_user) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: invitations invitations_session_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.invitations
    ADD CONSTRAINT invitations_session_id_fkey FOREIGN KEY (session_id) REFERENCES public.sports_sessions(id) ON DELETE CASCADE;


--
-- Name: invitations invitations_to_user_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.invitations
    ADD CONSTRAINT invitations_to_user_fkey FOREIGN KEY (to_user) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: karma_awards karma_awards_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.karma_awards
    ADD CONSTRAINT karma_awards_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: meeting_attendance meeting_attendance_meeting_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.meeting_attendance
    ADD CONSTRAINT meeting_attendance_meeting_id_fkey FOREIGN KEY (meeting_id) REFERENCES public.buddy_meetings(id) ON DELETE CASCADE;


--
-- Name: meeting_attendance meeting_attendance_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.meeting_attendance
    ADD CONSTRAINT meeting_attendance_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: meeting_checklist_items meeting_checklist_items_checked_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.meeting_checklist_items
    ADD CONSTRAINT meeting_checklist_items_checked_by_fkey FOREIGN KEY (checked_by) REFERENCES public.users(id) ON DELETE SET NULL;


--
-- Name: meeting_checklist_items meeting_checklist_items_meeting_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.meeting_checklist_items
    ADD CONSTRAINT meeting_checklist_items_meeting_id_fkey FOREIGN KEY (meeting_id) REFERENCES public.buddy_meetings(id) ON DELETE CASCADE;


--
-- Name: notifications notifications_actor_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.notifications
    ADD CONSTRAINT notifications_actor_id_fkey FOREIGN KEY (actor_id) REFERENCES public.users(id) ON DELETE SET NULL;


--
-- Name: notifications notifications_kind_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.notifications
    ADD CONSTRAINT notifications_kind_fkey FOREIGN KEY (kind) REFERENCES public.notification_kinds(kind);


--
-- Name: notifications notifications_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.notifications
    ADD CONSTRAINT notifications_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: pet_favorites pet_favorites_user_id_pet_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pet_favorites
    ADD CONSTRAINT pet_favorites_user_id_pet_id_fkey FOREIGN KEY (user_id, pet_id) REFERENCES public.pet_swipes(user_id, pet_id) ON DELETE CASCADE;


--
-- Name: pet_photos pet_photos_pet_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pet_photos
    ADD CONSTRAINT pet_photos_pet_id_fkey FOREIGN KEY (pet_id) REFERENCES public.pets(id) ON DELETE CASCADE;


--
-- Name: pet_preference_breeds pet_preference_breeds_breed_id_type_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pet_preference_breeds
    ADD CONSTRAINT pet_preference_breeds_breed_id_type_fkey FOREIGN KEY (breed_id, type) REFERENCES public.breeds(id, type);


--
-- Name: pet_preference_breeds pet_preference_breeds_user_id_type_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pet_preference_breeds
    ADD CONSTRAINT pet_preference_breeds_user_id_type_fkey FOREIGN KEY (user_id, type) REFERENCES public.pet_preferences(user_id, type) ON DELETE CASCADE;


--
-- Name: pet_preferences pet_preferences_type_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pet_preferences
    ADD CONSTRAINT pet_preferences_type_fkey FOREIGN KEY (type) REFERENCES public.pet_types(type);


--
-- Name: pet_preferences pet_preferences_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pet_preferences
    ADD CONSTRAINT pet_preferences_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: pet_swipes pet_swipes_pet_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pet_swipes
    ADD CONSTRAINT pet_swipes_pet_id_fkey FOREIGN KEY (pet_id) REFERENCES public.pets(id) ON DELETE CASCADE;


--
-- Name: pet_swipes pet_swipes_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pet_swipes
    ADD CONSTRAINT pet_swipes_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: pet_type_coats pet_type_coats_type_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pet_type_coats
    ADD CONSTRAINT pet_type_coats_type_fkey FOREIGN KEY (type) REFERENCES public.pet_types(type);


--
-- Name: pet_type_colors pet_type_colors_type_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pet_type_colors
    ADD CONSTRAINT pet_type_colors_type_fkey FOREIGN KEY (type) REFERENCES public.pet_types(type);


--
-- Name: pets pets_primary_breed_id_type_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pets
    ADD CONSTRAINT pets_primary_breed_id_type_fkey FOREIGN KEY (primary_breed_id, type) REFERENCES public.breeds(id, type);


--
-- Name: pets pets_secondary_breed_id_type_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pets
    ADD CONSTRAINT pets_secondary_breed_id_type_fkey FOREIGN KEY (secondary_breed_id, type) REFERENCES public.breeds(id, type);


--
-- Name: pets pets_shelter_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pets
    ADD CONSTRAINT pets_shelter_id_fkey FOREIGN KEY (shelter_id) REFERENCES public.shelters(id);


--
-- Name: pets pets_type_coat_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pets
    ADD CONSTRAINT pets_type_coat_fkey FOREIGN KEY (type, coat) REFERENCES public.pet_type_coats(type, coat);


--
-- Name: pets pets_type_color_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pets
    ADD CONSTRAINT pets_type_color_fkey FOREIGN KEY (type, color) REFERENCES public.pet_type_colors(type, color);


--
-- Name: pets pets_type_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pets
    ADD CONSTRAINT pets_type_fkey FOREIGN KEY (type) REFERENCES public.pet_types(type);


--
-- Name: pets pets_updated_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pets
    ADD CONSTRAINT pets_updated_by_fkey FOREIGN KEY (updated_by) REFERENCES public.users(id) ON DELETE SET NULL;


--
-- Name: project_follows project_follows_project_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.project_follows
    ADD CONSTRAINT project_follows_project_id_fkey FOREIGN KEY (project_id) REFERENCES public.projects(id) ON DELETE CASCADE;


--
-- Name: project_follows project_follows_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.project_follows
    ADD CONSTRAINT project_follows_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: project_members project_members_invited_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.project_members
    ADD CONSTRAINT project_members_invited_by_fkey FOREIGN KEY (invited_by) REFERENCES public.users(id);


--
-- Name: project_members project_members_project_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.project_members
    ADD CONSTRAINT project_members_project_id_fkey FOREIGN KEY (project_id) REFERENCES public.projects(id) ON DELETE CASCADE;


--
-- Name: project_members project_members_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.project_members
    ADD CONSTRAINT project_members_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: projects projects_owner_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.projects
    ADD CONSTRAINT projects_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES public.users(id);


--
-- Name: prolific_writers prolific_writers_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.prolific_writers
    ADD CONSTRAINT prolific_writers_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: quiz_results quiz_results_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.quiz_results
    ADD CONSTRAINT quiz_results_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: rounds rounds_project_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rounds
    ADD CONSTRAINT rounds_project_id_fkey FOREIGN KEY (project_id) REFERENCES public.projects(id) ON DELETE CASCADE;


--
-- Name: rounds rounds_winner_id_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rounds
    ADD CONSTRAINT rounds_winner_id_id_fkey FOREIGN KEY (winner_id, id) REFERENCES public.snippets(id, round_id);


--
-- Name: session_players session_players_session_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.session_players
    ADD CONSTRAINT session_players_session_id_fkey FOREIGN KEY (session_id) REFERENCES public.sports_sessions(id) ON DELETE CASCADE;


--
-- Name: session_players session_players_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.session_players
    ADD CONSTRAINT session_players_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: shelter_staff shelter_staff_added_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.shelter_staff
    ADD CONSTRAINT shelter_staff_added_by_fkey FOREIGN KEY (added_by) REFERENCES public.users(id);


--
-- Name: shelter_staff shelter_staff_shelter_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.shelter_staff
    ADD CONSTRAINT shelter_staff_shelter_id_fkey FOREIGN KEY (shelter_id) REFERENCES public.shelters(id) ON DELETE CASCADE;


--
-- Name: shelter_staff shelter_staff_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.shelter_staff
    ADD CONSTRAINT shelter_staff_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: snippet_results snippet_results_snippet_id_round_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.snippet_results
    ADD CONSTRAINT snippet_results_snippet_id_round_id_fkey FOREIGN KEY (snippet_id, round_id) REFERENCES public.snippets(id, round_id) ON DELETE CASCADE;


--
-- Name: snippets snippets_author_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.snippets
    ADD CONSTRAINT snippets_author_id_fkey FOREIGN KEY (author_id) REFERENCES public.users(id);


--
-- Name: snippets snippets_round_id_project_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.snippets
    ADD CONSTRAINT snippets_round_id_project_id_fkey FOREIGN KEY (round_id, project_id) REFERENCES public.rounds(id, project_id) ON DELETE CASCADE;


--
-- Name: sports_sessions sports_sessions_creator_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sports_sessions
    ADD CONSTRAINT sports_sessions_creator_id_fkey FOREIGN KEY (creator_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: sports_sessions sports_sessions_location_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sports_sessions
    ADD CONSTRAINT sports_sessions_location_id_fkey FOREIGN KEY (location_id) REFERENCES public.locations(id);


--
-- Name: sports_sessions sports_sessions_sport_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sports_sessions
    ADD CONSTRAINT sports_sessions_sport_fkey FOREIGN KEY (sport) REFERENCES public.sports(name);


--
-- Name: voter_habits voter_habits_author_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.voter_habits
    ADD CONSTRAINT voter_habits_author_id_fkey FOREIGN KEY (author_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: voter_habits voter_habits_voter_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.voter_habits
    ADD CONSTRAINT voter_habits_voter_id_fkey FOREIGN KEY (voter_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: voter_rounds voter_rounds_round_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.voter_rounds
    ADD CONSTRAINT voter_rounds_round_id_fkey FOREIGN KEY (round_id) REFERENCES public.rounds(id) ON DELETE CASCADE;


--
-- Name: voter_rounds voter_rounds_voter_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.voter_rounds
    ADD CONSTRAINT voter_rounds_voter_id_fkey FOREIGN KEY (voter_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: votes votes_snippet_id_round_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.votes
    ADD CONSTRAINT votes_snippet_id_round_id_fkey FOREIGN KEY (snippet_id, round_id) REFERENCES public.snippets(id, round_id) ON DELETE CASCADE;


--
-- Name: votes votes_voter_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.votes
    ADD CONSTRAINT votes_voter_id_fkey FOREIGN KEY (voter_id) REFERENCES public.users(id);


--
-- PostgreSQL database dump complete
--


