-- Invitations to sessions, the preferences quiz, and each user's inbox.
CREATE TABLE invitations (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    session_id bigint NOT NULL REFERENCES sports_sessions ON DELETE CASCADE,
    from_user bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    to_user bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'ACCEPTED', 'DECLINED')),
    created_at timestamptz NOT NULL DEFAULT now(),
    answered_at timestamptz,
    UNIQUE (session_id, to_user),
    CHECK (from_user <> to_user),
    CHECK ((status = 'PENDING') = (answered_at IS NULL))
);
CREATE INDEX invitations_to ON invitations (to_user, id);
CREATE INDEX invitations_from ON invitations (from_user, id);

CREATE TABLE quiz_results (
    user_id bigint PRIMARY KEY REFERENCES users ON DELETE CASCADE,
    sports_played text[] NOT NULL DEFAULT '{}',
    sports_not_wanted text[] NOT NULL DEFAULT '{}',
    preferred_genders text[] NOT NULL DEFAULT '{}',
    preferred_age_groups text[] NOT NULL DEFAULT '{}',
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK (NOT (sports_played && sports_not_wanted)),
    CHECK (preferred_genders <@ ARRAY['FEMALE', 'MALE', 'NON_BINARY', 'OTHER']),
    CHECK (preferred_age_groups <@ ARRAY['UNDER_18', 'AGE_18_24', 'AGE_25_34', 'AGE_35_44', 'AGE_45_54', 'AGE_55_PLUS'])
);

-- Written in the same transaction as the change it reports, then announced
-- with NOTIFY (the id only); a subscriber that was away reads what it
-- missed from here. session_id has no foreign key: a deleted session's
-- notice outlives it, with the sport and time copied in.
CREATE TABLE notifications (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    kind text NOT NULL CHECK (kind IN (
        'FRIEND_REQUEST_RECEIVED', 'FRIEND_REQUEST_ACCEPTED', 'INVITATION_RECEIVED',
        'INVITATION_ACCEPTED', 'INVITATION_DECLINED', 'SESSION_UPDATED', 'SESSION_DELETED')),
    actor_id bigint REFERENCES users ON DELETE SET NULL,
    session_id bigint,
    invitation_id bigint REFERENCES invitations ON DELETE SET NULL,
    friend_request_id bigint,
    message text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now(),
    read_at timestamptz
);
CREATE INDEX notifications_user ON notifications (user_id, id DESC);
CREATE INDEX notifications_unread ON notifications (user_id, id DESC) WHERE read_at IS NULL;
