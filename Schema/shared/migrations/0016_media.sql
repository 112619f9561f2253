-- Pictures. An upload is never kept as sent: it is remade (HuddleMedia)
-- into renditions, a few sizes in WebP and JPEG, kept here by default, so a
-- deployment with nothing but PostgreSQL serves pictures from every process
-- and a backup has them. A picture is reached by an unguessable key, made
-- anew for each upload: a changed picture is a new URL, and every URL can
-- be cached for ever.
CREATE TABLE media (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key text NOT NULL UNIQUE CHECK (key ~ '^[A-Za-z0-9_-]{22}$'),
    -- Who uploaded it: their pictures go with their account.
    owner_id bigint REFERENCES users (id) ON DELETE CASCADE,
    -- What it is for (avatar, pet-photo, …), which decides who may see it.
    purpose text NOT NULL CHECK (purpose ~ '^[a-z][a-z-]{0,31}$'),
    width integer NOT NULL CHECK (width > 0),
    height integer NOT NULL CHECK (height > 0),
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX media_owner ON media (owner_id);

CREATE TABLE media_renditions (
    media_id bigint NOT NULL REFERENCES media (id) ON DELETE CASCADE,
    size text NOT NULL CHECK (size IN ('thumbnail', 'feed', 'full')),
    encoding text NOT NULL CHECK (encoding IN ('webp', 'jpeg')),
    width integer NOT NULL CHECK (width > 0),
    height integer NOT NULL CHECK (height > 0),
    -- The first half of the bytes' SHA-256, in hex: the strong ETag.
    etag text NOT NULL CHECK (etag ~ '^[0-9a-f]{32}$'),
    bytes bytea NOT NULL CHECK (octet_length(bytes) BETWEEN 1 AND 16777216),
    PRIMARY KEY (media_id, size, encoding)
);
