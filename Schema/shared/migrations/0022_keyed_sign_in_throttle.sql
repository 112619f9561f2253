-- The names and client addresses that sign-in failures are counted by are
-- kept as keyed hashes: SHA-256 of a key of the deployment's followed by the
-- text. A plain SHA-256 of an address could be reversed by hashing all 2^32
-- IPv4 addresses, and of a name by hashing a list of names; a copy of the
-- failures without the key reveals neither. The key is made here, once, by
-- PostgreSQL's strong random source, and never leaves the database: every
-- process hashes the same way by calling sign_in_throttle_hash.
CREATE TABLE sign_in_throttle_key (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    key bytea NOT NULL CHECK (octet_length(key) = 32)
);
INSERT INTO sign_in_throttle_key (key) VALUES (uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()));

CREATE FUNCTION sign_in_throttle_hash(label text) RETURNS text LANGUAGE sql STABLE AS $$
    SELECT encode(sha256(k.key || convert_to(label, 'UTF8')), 'hex') FROM sign_in_throttle_key k
$$;

-- Counts under the plain hashes would never match again: they go (at most
-- the longest wait's worth of failures is forgotten).
DELETE FROM sign_in_failures;
