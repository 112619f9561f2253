-- A player's sessions in the order they happen, from an index: `mySessions`
-- and the place suggestions start from read a user's sessions by start.
-- Ordered over the join, they read every session a user ever played to
-- show a page of them.
--
-- The start is copied into the players' rows, and the copy cannot drift:
-- it is part of a foreign key to the session's (id, start), which carries
-- a changed start to them (ON UPDATE CASCADE), and a trigger fills it in
-- on insert, so that whoever adds a player names only the session.
ALTER TABLE sports_sessions ADD CONSTRAINT sports_sessions_id_start UNIQUE (id, occurs_at);

ALTER TABLE session_players ADD COLUMN occurs_at timestamptz;
UPDATE session_players p SET occurs_at = s.occurs_at FROM sports_sessions s WHERE s.id = p.session_id;
ALTER TABLE session_players ALTER COLUMN occurs_at SET NOT NULL;
ALTER TABLE session_players ADD CONSTRAINT session_players_session_start
    FOREIGN KEY (session_id, occurs_at) REFERENCES sports_sessions (id, occurs_at) ON UPDATE CASCADE ON DELETE CASCADE;
-- The key on the session alone says nothing the new one does not.
ALTER TABLE session_players DROP CONSTRAINT session_players_session_id_fkey;

CREATE FUNCTION session_players_start() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- Locked as the foreign key's check locks it: a start changed under
    -- the insert is waited for and read, rather than failing the check.
    SELECT s.occurs_at INTO NEW.occurs_at FROM sports_sessions s WHERE s.id = NEW.session_id FOR KEY SHARE;
    -- A session deleted under the insert: the error its foreign key gives.
    IF NOT FOUND THEN
        RAISE foreign_key_violation USING MESSAGE = format('sports session %s does not exist', NEW.session_id);
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER session_players_start BEFORE INSERT ON session_players
    FOR EACH ROW EXECUTE FUNCTION session_players_start();

CREATE INDEX session_players_by_user_start ON session_players (user_id, occurs_at, session_id);
