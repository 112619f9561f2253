-- Huddle's working set is meant to sit in memory or on SSD, where a random
-- read costs little more than a sequential one; at the default of 4 the
-- planner hash-joins whole tables where a few index lookups do.
DO $$ BEGIN
    EXECUTE format('ALTER DATABASE %I SET random_page_cost = 1.1', current_database());
END $$;
