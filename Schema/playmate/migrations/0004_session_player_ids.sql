-- A session keeps its players' ids in the order they joined, maintained by
-- the trigger that keeps `occupied` (in the same UPDATE, under the same row
-- lock) and checked against it. A page of sessions then names its players
-- without a join, and the players' rows come through the users loader
-- together with the creators': one PK lookup per user, one statement per level.
ALTER TABLE sports_sessions ADD COLUMN player_ids bigint[] NOT NULL DEFAULT '{}';

UPDATE sports_sessions s
SET player_ids = coalesce(
    (SELECT array_agg(p.user_id ORDER BY p.joined_at, p.user_id) FROM session_players p WHERE p.session_id = s.id), '{}');

ALTER TABLE sports_sessions
    ADD CONSTRAINT sports_sessions_player_ids_match CHECK (cardinality(player_ids) = occupied);

CREATE OR REPLACE FUNCTION session_players_count() RETURNS trigger LANGUAGE plpgsql AS $$
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
