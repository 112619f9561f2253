-- A session's players in the order they joined, straight from an index
-- (index-only once vacuumed), for the players loader.
CREATE INDEX session_players_by_session ON session_players (session_id, joined_at, user_id);

-- Huddle's working set is meant to sit in memory or on SSD, where a random
-- read costs little more than a sequential one; at the default of 4 the
-- planner hash-joins whole tables where a few index lookups do.
DO $$ BEGIN
    EXECUTE format('ALTER DATABASE %I SET random_page_cost = 1.1', current_database());
END $$;
