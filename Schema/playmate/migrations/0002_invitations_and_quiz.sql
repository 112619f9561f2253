-- Invitations to sessions and the preferences quiz.
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
