-- Places, sports sessions and their players. A session copies its
-- location's coordinates so that the radius search is one GiST index scan
-- (earthdistance over cube); occupied is kept by a trigger and checked
-- against capacity, so no interleaving of joins can overfill a session.
CREATE EXTENSION IF NOT EXISTS cube;
CREATE EXTENSION IF NOT EXISTS earthdistance;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE sports (name text PRIMARY KEY);
INSERT INTO sports (name) VALUES
    ('BADMINTON'), ('BASEBALL'), ('BASKETBALL'), ('CLIMBING'), ('CYCLING'), ('FOOTBALL'),
    ('GOLF'), ('HIKING'), ('ICE_HOCKEY'), ('RUNNING'), ('SOCCER'), ('SOFTBALL'),
    ('SQUASH'), ('SWIMMING'), ('TABLE_TENNIS'), ('TENNIS'), ('ULTIMATE'), ('VOLLEYBALL'), ('YOGA');

CREATE TABLE locations (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    latitude double precision NOT NULL CHECK (latitude BETWEEN -90 AND 90),
    longitude double precision NOT NULL CHECK (longitude BETWEEN -180 AND 180),
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX locations_name_trigram ON locations USING gin (lower(name) gin_trgm_ops);

CREATE TABLE sports_sessions (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    sport text NOT NULL REFERENCES sports,
    skill_level text NOT NULL CHECK (skill_level IN ('BEGINNER', 'INTERMEDIATE', 'ADVANCED', 'ANY')),
    creator_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    location_id bigint NOT NULL REFERENCES locations,
    latitude double precision NOT NULL,
    longitude double precision NOT NULL,
    occurs_at timestamptz NOT NULL,
    duration_minutes integer NOT NULL CHECK (duration_minutes BETWEEN 1 AND 1440),
    capacity integer NOT NULL CHECK (capacity BETWEEN 2 AND 100),
    occupied integer NOT NULL DEFAULT 0 CHECK (occupied >= 0 AND occupied <= capacity),
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sports_sessions_occurs_at ON sports_sessions (occurs_at, id);
CREATE INDEX sports_sessions_position ON sports_sessions USING gist (ll_to_earth(latitude, longitude));
CREATE INDEX sports_sessions_creator ON sports_sessions (creator_id);

CREATE TABLE session_players (
    session_id bigint NOT NULL REFERENCES sports_sessions ON DELETE CASCADE,
    user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    joined_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (session_id, user_id)
);
CREATE INDEX session_players_user ON session_players (user_id, session_id);

CREATE FUNCTION session_players_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE sports_sessions SET occupied = occupied + 1 WHERE id = NEW.session_id;
        RETURN NEW;
    END IF;
    UPDATE sports_sessions SET occupied = occupied - 1 WHERE id = OLD.session_id;
    RETURN OLD;
END $$;
CREATE TRIGGER session_players_count AFTER INSERT OR DELETE ON session_players
    FOR EACH ROW EXECUTE FUNCTION session_players_count();
