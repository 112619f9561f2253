-- Prolific: stories written together in rounds. A project's rounds run one
-- at a time; writers submit one snippet per round, everyone votes, and at
-- the round's end the karma-weighted winner joins the story. The rules that
-- keep a story right are here, not only in the resolvers: one open round
-- per project, snippets and votes only in the open round (and only by
-- members of a private project), one snippet per author per round, no vote
-- for your own snippet, snippets never change, a finished round never
-- changes, the winner belongs to its round, karma is a ledger whose total
-- a trigger keeps.

-- Titles are searched by trigram similarity.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Activity with exponential decay, kept as log2 of the decayed sum so that
-- the order never needs recomputing: an event of weight w at time t adds
-- 2^(log2 w + t/H) with H one day, and comparing two projects' sums at any
-- later instant is comparing the stored numbers. log2(2^a + 2^b) is
-- max(a, b) + log2(1 + 2^-|a-b|), which stays finite.
CREATE FUNCTION prolific_heat_add(heat double precision, weight double precision, at timestamptz)
RETURNS double precision LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN heat IS NULL THEN event
        ELSE greatest(heat, event) + ln(1 + power(2::double precision, -abs(heat - event))) / ln(2) END
    FROM (SELECT ln(weight) / ln(2) + extract(epoch FROM at)::double precision / 86400 AS event) e
$$;

CREATE TABLE projects (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    owner_id bigint NOT NULL REFERENCES users,
    title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 120 AND title = btrim(title)),
    seed text NOT NULL CHECK (char_length(seed) BETWEEN 1 AND 1000 AND btrim(seed) <> ''),
    is_private boolean NOT NULL DEFAULT false,
    pace text NOT NULL CHECK (pace IN ('NORMAL', 'SPEED', 'CUSTOM')),
    round_minutes integer NOT NULL CHECK (round_minutes BETWEEN 1 AND 10080),
    round_limit integer CHECK (round_limit BETWEEN 1 AND 1000),
    rounds_completed integer NOT NULL DEFAULT 0 CHECK (rounds_completed >= 0),
    completed_at timestamptz,
    follower_count integer NOT NULL DEFAULT 0 CHECK (follower_count >= 0),
    heat double precision NOT NULL,
    last_activity_at timestamptz NOT NULL DEFAULT now(),
    created_at timestamptz NOT NULL DEFAULT now(),
    CHECK (round_limit IS NULL OR rounds_completed <= round_limit),
    CHECK (pace <> 'NORMAL' OR round_minutes = 1440),
    CHECK (pace <> 'SPEED' OR round_minutes = 10)
);
CREATE INDEX projects_newest ON projects (created_at DESC, id DESC);
CREATE INDEX projects_explore ON projects (heat DESC, id DESC);
CREATE INDEX projects_owner ON projects (owner_id, created_at DESC, id DESC);
CREATE INDEX projects_title_trigram ON projects USING gin (lower(title) gin_trgm_ops);

-- Who may read and write a private project: its owner and whom they
-- invited. Public projects have their owner as their only member row.
CREATE TABLE project_members (
    project_id bigint NOT NULL REFERENCES projects ON DELETE CASCADE,
    user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    invited_by bigint REFERENCES users,
    joined_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project_id, user_id)
);
CREATE INDEX project_members_user ON project_members (user_id, project_id);

CREATE TABLE project_follows (
    project_id bigint NOT NULL REFERENCES projects ON DELETE CASCADE,
    user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project_id, user_id)
);
CREATE INDEX project_follows_user ON project_follows (user_id, created_at DESC, project_id DESC);

CREATE TABLE rounds (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    project_id bigint NOT NULL REFERENCES projects ON DELETE CASCADE,
    number integer NOT NULL CHECK (number >= 1),
    started_at timestamptz NOT NULL DEFAULT now(),
    ends_at timestamptz NOT NULL,
    completed_at timestamptz,
    winner_id bigint,
    -- Times the end moved on because nobody had written.
    extensions integer NOT NULL DEFAULT 0 CHECK (extensions >= 0),
    UNIQUE (project_id, number),
    UNIQUE (id, project_id),
    CHECK (ends_at > started_at),
    CHECK (winner_id IS NULL OR completed_at IS NOT NULL)
);
CREATE UNIQUE INDEX rounds_one_open ON rounds (project_id) WHERE completed_at IS NULL;

CREATE TABLE snippets (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    round_id bigint NOT NULL,
    project_id bigint NOT NULL,
    author_id bigint NOT NULL REFERENCES users,
    text text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 1000 AND btrim(text) <> ''),
    is_ending boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (round_id, author_id),
    UNIQUE (id, round_id),
    FOREIGN KEY (round_id, project_id) REFERENCES rounds (id, project_id) ON DELETE CASCADE
);
CREATE INDEX snippets_author ON snippets (author_id, created_at DESC, id DESC);
CREATE INDEX snippets_project ON snippets (project_id);

-- The winner is one of the round's own snippets.
ALTER TABLE rounds ADD FOREIGN KEY (winner_id, id) REFERENCES snippets (id, round_id);

CREATE TABLE votes (
    snippet_id bigint NOT NULL,
    round_id bigint NOT NULL,
    voter_id bigint NOT NULL REFERENCES users,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (snippet_id, voter_id),
    FOREIGN KEY (snippet_id, round_id) REFERENCES snippets (id, round_id) ON DELETE CASCADE
);
CREATE INDEX votes_round_voter ON votes (round_id, voter_id);
CREATE INDEX votes_voter ON votes (voter_id, round_id);

-- The count of a finished round, kept as it was counted: a finished round
-- does not change when voters' karma does later.
CREATE TABLE snippet_results (
    snippet_id bigint PRIMARY KEY,
    round_id bigint NOT NULL,
    votes integer NOT NULL CHECK (votes >= 0),
    score double precision NOT NULL CHECK (score >= 0),
    FOREIGN KEY (snippet_id, round_id) REFERENCES snippets (id, round_id) ON DELETE CASCADE
);
CREATE INDEX snippet_results_round ON snippet_results (round_id);

-- Each voter's finished rounds and whom they voted for in each, written
-- when a round ends: the history the habit rule of the vote weight reads
-- (ten rows a voter, not every vote they ever cast).
CREATE TABLE voter_rounds (
    voter_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    round_id bigint NOT NULL REFERENCES rounds ON DELETE CASCADE,
    completed_at timestamptz NOT NULL,
    authors bigint[] NOT NULL,
    PRIMARY KEY (voter_id, round_id)
);
CREATE INDEX voter_rounds_recent ON voter_rounds (voter_id, completed_at DESC, round_id DESC);

-- The authors each voter is habitual for (the vote weight's habit rule):
-- among their last ten finished rounds with a vote, they voted in at least
-- three and in more than half of them for the author. It changes only when
-- a round the voter voted in ends, so it is kept then, for that round's
-- voters, and counting reads it with one index lookup a vote.
CREATE TABLE voter_habits (
    voter_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    author_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    PRIMARY KEY (voter_id, author_id)
);

CREATE FUNCTION prolific_refresh_habits(voters bigint[]) RETURNS void LANGUAGE sql AS $$
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

-- Karma: a ledger of awards, one per (user, reason, subject), and per
-- user the totals a trigger keeps, which badges and vote weights read.
CREATE TABLE prolific_writers (
    user_id bigint PRIMARY KEY REFERENCES users ON DELETE CASCADE,
    karma integer NOT NULL DEFAULT 0 CHECK (karma >= 0),
    projects_created integer NOT NULL DEFAULT 0,
    snippets_submitted integer NOT NULL DEFAULT 0,
    votes_rounds integer NOT NULL DEFAULT 0,
    rounds_won integer NOT NULL DEFAULT 0
);

CREATE TABLE karma_awards (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    -- PROJECT_CREATED: a project; SNIPPET_SUBMITTED: a snippet; VOTED: a
    -- round (the first vote in it); ROUND_WON: a round.
    reason text NOT NULL CHECK (reason IN ('PROJECT_CREATED', 'SNIPPET_SUBMITTED', 'VOTED', 'ROUND_WON')),
    subject_id bigint NOT NULL,
    points integer NOT NULL CHECK (points > 0),
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (user_id, reason, subject_id)
);

CREATE FUNCTION prolific_award(user_id bigint, reason text, subject_id bigint) RETURNS void LANGUAGE sql AS $$
    INSERT INTO karma_awards (user_id, reason, subject_id, points)
    VALUES (user_id, reason, subject_id, CASE reason
        WHEN 'PROJECT_CREATED' THEN 5 WHEN 'SNIPPET_SUBMITTED' THEN 2 WHEN 'VOTED' THEN 1 WHEN 'ROUND_WON' THEN 10 END)
    ON CONFLICT DO NOTHING
$$;

CREATE FUNCTION karma_awards_total() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER karma_awards_total AFTER INSERT ON karma_awards FOR EACH ROW EXECUTE FUNCTION karma_awards_total();

-- Errors the API turns into answers; SQLSTATE class PR is Prolific's.
--   PR001 the round has ended   PR002 your own snippet   PR003 not a member
--   PR004 snippets never change PR005 a finished round never changes

CREATE FUNCTION prolific_require_member(project bigint, member bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT is_private FROM projects WHERE id = project)
        AND NOT EXISTS (SELECT 1 FROM project_members m WHERE m.project_id = project AND m.user_id = member) THEN
        RAISE EXCEPTION 'only members of this private project may do this' USING ERRCODE = 'PR003';
    END IF;
END $$;

-- A snippet or a vote lands only in the open round. The round's row is
-- read FOR SHARE, which waits for a round end in progress (it holds the row
-- FOR UPDATE) and then sees the round finished: a write racing the close
-- is either in the count or refused, never lost.
CREATE FUNCTION prolific_require_open_round(round bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT completed_at FROM rounds WHERE id = round FOR SHARE) IS NOT NULL THEN
        RAISE EXCEPTION 'this round has ended' USING ERRCODE = 'PR001';
    END IF;
END $$;

CREATE FUNCTION projects_before_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.heat := prolific_heat_add(NULL, 8, NEW.created_at);
    RETURN NEW;
END $$;
CREATE TRIGGER projects_before_insert BEFORE INSERT ON projects FOR EACH ROW EXECUTE FUNCTION projects_before_insert();

CREATE FUNCTION projects_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO project_members (project_id, user_id) VALUES (NEW.id, NEW.owner_id);
    PERFORM prolific_award(NEW.owner_id, 'PROJECT_CREATED', NEW.id);
    RETURN NEW;
END $$;
CREATE TRIGGER projects_after_insert AFTER INSERT ON projects FOR EACH ROW EXECUTE FUNCTION projects_after_insert();

-- Activity that moves a project up the explore order.
CREATE FUNCTION prolific_touch(project bigint, weight double precision) RETURNS void LANGUAGE sql AS $$
    UPDATE projects SET heat = prolific_heat_add(heat, weight, now()), last_activity_at = now() WHERE id = project
$$;

CREATE FUNCTION snippets_before_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM prolific_require_open_round(NEW.round_id);
    PERFORM prolific_require_member(NEW.project_id, NEW.author_id);
    RETURN NEW;
END $$;
CREATE TRIGGER snippets_before_insert BEFORE INSERT ON snippets FOR EACH ROW EXECUTE FUNCTION snippets_before_insert();

CREATE FUNCTION snippets_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM prolific_award(NEW.author_id, 'SNIPPET_SUBMITTED', NEW.id);
    PERFORM prolific_touch(NEW.project_id, 3);
    RETURN NEW;
END $$;
CREATE TRIGGER snippets_after_insert AFTER INSERT ON snippets FOR EACH ROW EXECUTE FUNCTION snippets_after_insert();

CREATE FUNCTION snippets_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'a snippet never changes once posted' USING ERRCODE = 'PR004';
END $$;
CREATE TRIGGER snippets_immutable BEFORE UPDATE ON snippets FOR EACH ROW EXECUTE FUNCTION snippets_immutable();

CREATE FUNCTION rounds_before_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.completed_at IS NOT NULL THEN
        RAISE EXCEPTION 'a finished round never changes' USING ERRCODE = 'PR005';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER rounds_before_update BEFORE UPDATE ON rounds FOR EACH ROW EXECUTE FUNCTION rounds_before_update();

-- A round's end: the winner's karma, and the voters' history.
CREATE FUNCTION rounds_after_end() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER rounds_after_end AFTER UPDATE OF completed_at ON rounds FOR EACH ROW
    WHEN (OLD.completed_at IS NULL AND NEW.completed_at IS NOT NULL) EXECUTE FUNCTION rounds_after_end();

CREATE FUNCTION votes_check() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER votes_check BEFORE INSERT OR DELETE ON votes FOR EACH ROW EXECUTE FUNCTION votes_check();

CREATE FUNCTION project_follows_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM prolific_require_member(NEW.project_id, NEW.user_id);
        UPDATE projects SET follower_count = follower_count + 1, heat = prolific_heat_add(heat, 2, now()) WHERE id = NEW.project_id;
        RETURN NEW;
    END IF;
    UPDATE projects SET follower_count = follower_count - 1 WHERE id = OLD.project_id;
    RETURN OLD;
END $$;
CREATE TRIGGER project_follows_change AFTER INSERT OR DELETE ON project_follows
    FOR EACH ROW EXECUTE FUNCTION project_follows_change();

-- The weighted count of rounds' snippets (README, "Prolific: vote
-- weight"): each vote weighs the voter's karma (at least 1), divided by the
-- number of snippets they voted for in that round, and a quarter of that
-- when the voter is habitual for the author (voter_habits, as of the
-- rounds finished so far). The round end counts with it, and open rounds
-- show it live.
-- PL/pgSQL, not SQL: its statement's plan is kept for the session, where a
-- SQL function's body is planned again on every call.
CREATE FUNCTION prolific_snippet_scores(round_ids bigint[])
RETURNS TABLE (snippet_id bigint, round_id bigint, votes integer, score double precision)
LANGUAGE plpgsql STABLE AS $$
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
