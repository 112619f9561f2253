-- A copy of everything an account owns (requestDataExport), made by the
-- scheduler (job kind 'account.export') and fetched once by the link
-- mailed to the account's address (an account token of purpose
-- 'data-export'); taken on download, or removed when it expires.
CREATE TABLE data_exports (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    document text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    CHECK (expires_at > created_at)
);
CREATE INDEX data_exports_user ON data_exports (user_id, created_at DESC);

ALTER TABLE account_tokens DROP CONSTRAINT account_tokens_purpose_check,
    ADD CONSTRAINT account_tokens_purpose_check CHECK (purpose IN ('verify-email', 'reset-password', 'change-email', 'data-export'));
