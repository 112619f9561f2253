-- Pictures kept in an S3-compatible bucket (huddle serve --media-store
-- s3://…): their renditions' rows keep the sizes and ETags but no bytes,
-- which are objects named KEY/SIZE.EXT below the store's prefix. Pictures
-- made while no store was named keep their bytes here and are served from
-- here either way.
ALTER TABLE media ADD COLUMN stored_in text NOT NULL DEFAULT 'postgres' CHECK (stored_in IN ('postgres', 's3'));
ALTER TABLE media_renditions ALTER COLUMN bytes DROP NOT NULL;

-- The objects of pictures removed, until the scheduler has deleted them
-- from the bucket (job media.trash), however the picture went: a trigger
-- sees every removal, cascades included.
CREATE TABLE media_object_trash (
    object text PRIMARY KEY,
    removed_at timestamptz NOT NULL DEFAULT now()
);
CREATE FUNCTION media_objects_to_trash() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO media_object_trash (object)
    SELECT OLD.key || '/' || size || '.' || extension
    FROM unnest(ARRAY['thumbnail', 'feed', 'full']) AS size, unnest(ARRAY['webp', 'jpg']) AS extension
    ON CONFLICT DO NOTHING;
    INSERT INTO scheduled_jobs (kind, subject_id, due_at) VALUES ('media.trash', 0, now()) ON CONFLICT (kind, subject_id) DO NOTHING;
    -- The runners wake at the commit rather than at their next look.
    PERFORM pg_notify('huddle_scheduler', (extract(epoch FROM now()) * 1000)::bigint::text);
    RETURN NULL;
END
$$;
CREATE TRIGGER media_objects_to_trash AFTER DELETE ON media
    FOR EACH ROW WHEN (OLD.stored_in = 's3') EXECUTE FUNCTION media_objects_to_trash();
