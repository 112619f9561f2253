-- Outbound mail and the links it carries.
--
-- The outbox: a message is a row written in the transaction of the change
-- that causes it (a sign-up, a reset asked for), naming its template and
-- parameters, never its text: the message is made when it is sent, so a
-- link's token exists only in the message and, hashed, below. The durable
-- scheduler sends it (job kind 'mail.send', subject the row's id), tries
-- again with backoff, and gives up ('dead') after the last attempt or a
-- permanent refusal; an operator sees and retries those (`huddle outbox`).
CREATE TABLE email_outbox (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- Whom it is for: their mail goes with their account.
    user_id bigint REFERENCES users (id) ON DELETE CASCADE,
    recipient text NOT NULL CHECK (length(recipient) BETWEEN 3 AND 254 AND recipient ~ '^[!-~]+@[!-~]+$'),
    template text NOT NULL CHECK (template ~ '^[a-z][a-z0-9-]{0,63}$'),
    parameters jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(parameters) = 'object' AND octet_length(parameters::text) <= 16384),
    state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'dead')),
    attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    last_error text CHECK (length(last_error) <= 2000),
    created_at timestamptz NOT NULL DEFAULT now(),
    sent_at timestamptz,
    CHECK ((state = 'sent') = (sent_at IS NOT NULL))
);
CREATE INDEX email_outbox_waiting ON email_outbox (state, id) WHERE state <> 'sent';
CREATE INDEX email_outbox_by_user ON email_outbox (user_id, template, created_at);

-- Whether the account's address has been shown to reach its owner.
ALTER TABLE users ADD COLUMN email_verified_at timestamptz;

-- One-use tokens that mail carries in links: to confirm an address (the
-- account's, or the new one of a change) or to set a new password. Only
-- the SHA-256 is kept; a token works once, before it expires, for the
-- address it was sent to.
CREATE TABLE account_tokens (
    token_hash text PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose text NOT NULL CHECK (purpose IN ('verify-email', 'reset-password', 'change-email')),
    email text NOT NULL CHECK (length(email) <= 254),
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at timestamptz,
    CHECK (expires_at > created_at)
);
CREATE INDEX account_tokens_by_user ON account_tokens (user_id, purpose);
