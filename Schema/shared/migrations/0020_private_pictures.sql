-- A private project's pictures are served only by signed URLs that expire
-- (PictureURLs); the rest by their unguessable key alone.
ALTER TABLE media ADD COLUMN private boolean NOT NULL DEFAULT false;

-- The key those URLs are signed with (HMAC-SHA256), made by the first
-- process to start, so every process signs and checks alike. Kept beside the
-- pictures it guards: whoever can read it can read them already.
CREATE TABLE media_signing_key (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    key bytea NOT NULL CHECK (octet_length(key) = 32),
    created_at timestamptz NOT NULL DEFAULT now()
);

-- A picture removed is forgotten by every process's cache of renditions:
-- each LISTENs here, and the notice carries the picture's key.
CREATE FUNCTION media_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('huddle_media_removed', OLD.key);
    RETURN NULL;
END
$$;
CREATE TRIGGER media_removed AFTER DELETE ON media FOR EACH ROW EXECUTE FUNCTION media_removed();
