-- Accounts and their bearer tokens. Usernames and emails are unique
-- ignoring case; the checks repeat the API's validation so that a wrong
-- resolver still cannot store a bad row.
CREATE TABLE users (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    username text NOT NULL CHECK (username ~ '^[A-Za-z0-9_.]{3,30}$'),
    email text NOT NULL CHECK (length(email) <= 254 AND email ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$'),
    password_hash text NOT NULL,
    first_name text NOT NULL DEFAULT '' CHECK (length(first_name) <= 100),
    last_name text NOT NULL DEFAULT '' CHECK (length(last_name) <= 100),
    birthday date CHECK (birthday >= DATE '1900-01-01'),
    gender text CHECK (gender IN ('FEMALE', 'MALE', 'NON_BINARY', 'OTHER')),
    biography text NOT NULL DEFAULT '' CHECK (length(biography) <= 2000),
    profile_image_url text CHECK (length(profile_image_url) <= 2048 AND profile_image_url ~ '^https?://'),
    -- Where the user usually plays, for suggestions.
    home_latitude double precision CHECK (home_latitude BETWEEN -90 AND 90),
    home_longitude double precision CHECK (home_longitude BETWEEN -180 AND 180),
    created_at timestamptz NOT NULL DEFAULT now(),
    CHECK ((home_latitude IS NULL) = (home_longitude IS NULL))
);
CREATE UNIQUE INDEX users_username_key ON users (lower(username));
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

-- Only a token's SHA-256 is stored: a leaked table grants no sessions.
CREATE TABLE auth_tokens (
    token_hash text PRIMARY KEY,
    user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
);
CREATE INDEX auth_tokens_user ON auth_tokens (user_id);
