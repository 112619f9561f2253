-- The document's fuller matching, when the server is run with
-- chat-before-pairing=1 (it sets huddle.chat_before_pairing in the
-- swipe's transaction): two right swipes make a match, the two chat, and
-- only when both confirm are they buddies (the pair, within the cap).
-- Without it, two right swipes make the pair at once, as before.
CREATE TABLE buddy_matches (
    first_id bigint NOT NULL REFERENCES habit_profiles ON DELETE CASCADE,
    second_id bigint NOT NULL REFERENCES habit_profiles ON DELETE CASCADE,
    matched_at timestamptz NOT NULL DEFAULT now(),
    first_confirmed boolean NOT NULL DEFAULT false,
    second_confirmed boolean NOT NULL DEFAULT false,
    PRIMARY KEY (first_id, second_id),
    CHECK (first_id < second_id)
);
CREATE INDEX buddy_matches_second ON buddy_matches (second_id, first_id);

CREATE OR REPLACE FUNCTION buddy_swipes_match() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM habit_profiles WHERE user_id IN (NEW.user_id, NEW.candidate_id) ORDER BY user_id FOR NO KEY UPDATE;
    IF NOT EXISTS (SELECT 1 FROM buddy_swipes WHERE user_id = NEW.candidate_id AND candidate_id = NEW.user_id AND direction = 'RIGHT')
       OR EXISTS (SELECT 1 FROM buddy_pairs WHERE first_id = least(NEW.user_id, NEW.candidate_id)
                                              AND second_id = greatest(NEW.user_id, NEW.candidate_id)) THEN
        RETURN NULL;
    END IF;
    IF coalesce(current_setting('huddle.chat_before_pairing', true), '') = '1' THEN
        INSERT INTO buddy_matches (first_id, second_id)
        VALUES (least(NEW.user_id, NEW.candidate_id), greatest(NEW.user_id, NEW.candidate_id))
        ON CONFLICT DO NOTHING;
    ELSIF habit_buddy_count(NEW.user_id) < habit_max_buddies() AND habit_buddy_count(NEW.candidate_id) < habit_max_buddies() THEN
        INSERT INTO buddy_pairs (first_id, second_id)
        VALUES (least(NEW.user_id, NEW.candidate_id), greatest(NEW.user_id, NEW.candidate_id))
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END $$;

-- A pair made ends its match: the chat goes on between buddies.
CREATE FUNCTION buddy_pairs_end_match() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM buddy_matches WHERE first_id = NEW.first_id AND second_id = NEW.second_id;
    RETURN NULL;
END $$;
CREATE TRIGGER buddy_pairs_end_match AFTER INSERT ON buddy_pairs
    FOR EACH ROW EXECUTE FUNCTION buddy_pairs_end_match();

-- A conversation between two people matched or paired; read_at is the
-- recipient's receipt.
CREATE TABLE buddy_messages (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    sender_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    recipient_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    text text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 2000 AND btrim(text) <> ''),
    sent_at timestamptz NOT NULL DEFAULT now(),
    read_at timestamptz CHECK (read_at >= sent_at),
    CHECK (sender_id <> recipient_id)
);
CREATE INDEX buddy_messages_conversation
    ON buddy_messages (least(sender_id, recipient_id), greatest(sender_id, recipient_id), id DESC);
CREATE INDEX buddy_messages_unread ON buddy_messages (recipient_id, sender_id) WHERE read_at IS NULL;

-- Only between two people matched or paired (HB011). The match or pair
-- is held (FOR KEY SHARE) until the message commits: a decline or an end
-- at the same moment either waits for it or is seen, never crossed.
CREATE FUNCTION buddy_messages_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM buddy_matches WHERE first_id = least(NEW.sender_id, NEW.recipient_id)
                                   AND second_id = greatest(NEW.sender_id, NEW.recipient_id) FOR KEY SHARE;
    IF NOT FOUND THEN
        PERFORM 1 FROM buddy_pairs WHERE first_id = least(NEW.sender_id, NEW.recipient_id)
                                     AND second_id = greatest(NEW.sender_id, NEW.recipient_id) FOR KEY SHARE;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'messages go only between a match or a pair' USING ERRCODE = 'HB011';
        END IF;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER buddy_messages_check BEFORE INSERT ON buddy_messages
    FOR EACH ROW EXECUTE FUNCTION buddy_messages_check();
