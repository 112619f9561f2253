-- "Users can follow other users": a follow is one user's of one writer;
-- the writer's new projects reach their followers (a feed and a notice).
-- Each writer's follower and following counts are kept with their other
-- totals in prolific_writers, by this table's trigger, so a page of users
-- reads its counts in the statement it reads karma with.
CREATE TABLE writer_follows (
    follower_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    writer_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    followed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (follower_id, writer_id),
    CHECK (follower_id <> writer_id)
);
CREATE INDEX writer_follows_writer ON writer_follows (writer_id, follower_id);

ALTER TABLE prolific_writers
    ADD COLUMN followers integer NOT NULL DEFAULT 0 CHECK (followers >= 0),
    ADD COLUMN following integer NOT NULL DEFAULT 0 CHECK (following >= 0);

-- Both rows are taken in user id order, as every follow takes them: two
-- users following each other at the same moment wait, never deadlock.
CREATE FUNCTION writer_follows_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO prolific_writers AS w (user_id, followers, following)
        SELECT id, (id = NEW.writer_id)::int, (id = NEW.follower_id)::int
        FROM unnest(ARRAY[least(NEW.writer_id, NEW.follower_id), greatest(NEW.writer_id, NEW.follower_id)]) AS id
        ON CONFLICT (user_id) DO UPDATE SET followers = w.followers + EXCLUDED.followers,
                                            following = w.following + EXCLUDED.following;
        RETURN NEW;
    END IF;
    -- A deleted account's own row may be gone already; the other's is kept right.
    UPDATE prolific_writers SET followers = followers - (user_id = OLD.writer_id)::int,
                                following = following - (user_id = OLD.follower_id)::int
    WHERE user_id IN (OLD.writer_id, OLD.follower_id);
    RETURN OLD;
END $$;
CREATE TRIGGER writer_follows_count AFTER INSERT OR DELETE ON writer_follows
    FOR EACH ROW EXECUTE FUNCTION writer_follows_count();
