-- A session's players in the order they joined, straight from an index
-- (index-only once vacuumed), for the players loader.
CREATE INDEX session_players_by_session ON session_players (session_id, joined_at, user_id);
