-- Servers keep every shelter in memory to order the feed by distance
-- (ShelterDirectory). Any change to the table, however it is made, tells
-- them after it commits, and each one reads the table again.
CREATE FUNCTION shelters_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('huddle_shelters_changed', '');
    RETURN NULL;
END $$;
CREATE TRIGGER shelters_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON shelters
    FOR EACH STATEMENT EXECUTE FUNCTION shelters_changed();
