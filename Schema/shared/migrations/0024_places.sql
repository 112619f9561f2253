-- The gazetteer: cities, towns and villages, and postal codes' areas,
-- loaded from GeoNames-format files (`huddle places import`), so a user can
-- type "Brooklyn" or "10003" where a place is asked for. Searched by prefix
-- (btree) and by trigram similarity (typos); the search text is the name
-- in ASCII, lower case, as GeoNames gives it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE places (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- GeoNames' geonameid for a populated place; null for a postal code.
    geoname_id bigint UNIQUE,
    name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
    search_name text NOT NULL CHECK (char_length(search_name) BETWEEN 1 AND 200 AND search_name = lower(search_name)),
    country_code text NOT NULL CHECK (country_code ~ '^[A-Z]{2}$'),
    region text CHECK (char_length(region) BETWEEN 1 AND 100),
    postal_code text CHECK (char_length(postal_code) BETWEEN 1 AND 20),
    latitude double precision NOT NULL CHECK (latitude BETWEEN -90 AND 90),
    longitude double precision NOT NULL CHECK (longitude BETWEEN -180 AND 180),
    population bigint CHECK (population >= 0),
    time_zone text CHECK (char_length(time_zone) BETWEEN 1 AND 64),
    -- A place is a populated place or a postal code's area, never both.
    CHECK ((geoname_id IS NULL) <> (postal_code IS NULL))
);
-- A postal code's area is one row per code and place name in a country (one
-- code can cover several villages), so importing the file again replaces it.
CREATE UNIQUE INDEX places_postal ON places (country_code, postal_code, search_name) WHERE postal_code IS NOT NULL;
CREATE INDEX places_search_prefix ON places (search_name text_pattern_ops);
CREATE INDEX places_search_trigram ON places USING gin (search_name gin_trgm_ops);
CREATE INDEX places_postal_prefix ON places (postal_code text_pattern_ops) WHERE postal_code IS NOT NULL;
