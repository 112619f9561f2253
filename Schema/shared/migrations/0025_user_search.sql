-- Finding people by what a user types: a username's or a full name's
-- beginning (btree, pattern order) or a close spelling (trigrams).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX users_username_prefix ON users (lower(username) text_pattern_ops);
CREATE INDEX users_username_trigram ON users USING gin (lower(username) gin_trgm_ops);
CREATE INDEX users_full_name_prefix ON users (lower(first_name || ' ' || last_name) text_pattern_ops);
CREATE INDEX users_full_name_trigram ON users USING gin (lower(first_name || ' ' || last_name) gin_trgm_ops);
