-- One pending request per pair, whichever way it goes; a friendship is
-- stored once per direction so each user's list is one index range.
CREATE TABLE friend_requests (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    from_user bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    to_user bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    CHECK (from_user <> to_user)
);
CREATE UNIQUE INDEX friend_requests_pair_key ON friend_requests (least(from_user, to_user), greatest(from_user, to_user));
CREATE INDEX friend_requests_to ON friend_requests (to_user, id);
CREATE INDEX friend_requests_from ON friend_requests (from_user, id);

CREATE TABLE friendships (
    user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    friend_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, friend_id),
    CHECK (user_id <> friend_id)
);

-- No request between people who are friends already.
CREATE FUNCTION friend_request_not_between_friends() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM friendships WHERE user_id = NEW.from_user AND friend_id = NEW.to_user) THEN
        RAISE EXCEPTION 'already friends' USING ERRCODE = 'check_violation', CONSTRAINT = 'friend_requests_not_friends';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER friend_requests_not_friends BEFORE INSERT ON friend_requests
    FOR EACH ROW EXECUTE FUNCTION friend_request_not_between_friends();
