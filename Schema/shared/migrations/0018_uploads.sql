-- Uploads. A file sent in a multipart request (or PUT to a one-time URL) is
-- remade at once and kept as a picture of purpose 'upload': staged, owned
-- by its sender, until a mutation claims it for a purpose (an avatar, a
-- pet's photo) or it is an hour old and removed unclaimed.
CREATE INDEX media_staged ON media (created_at) WHERE purpose = 'upload';

-- How many files each user sent in their current hour: counted, and
-- refused past the setting, by one statement (no two requests both take
-- the last place).
CREATE TABLE upload_counts (
    user_id bigint PRIMARY KEY REFERENCES users ON DELETE CASCADE,
    window_started_at timestamptz NOT NULL,
    files integer NOT NULL CHECK (files >= 0)
);

-- A one-time URL to PUT one file to (createUpload): the token's hash only.
CREATE TABLE upload_slots (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    token_hash text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
    expires_at timestamptz NOT NULL,
    -- The picture the PUT made; a slot is used once.
    media_id bigint REFERENCES media (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX upload_slots_user ON upload_slots (user_id);

ALTER TABLE users ADD COLUMN avatar_id bigint REFERENCES media (id) ON DELETE SET NULL;
