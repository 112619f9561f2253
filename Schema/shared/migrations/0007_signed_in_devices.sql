-- Each token is a device signed in to its account, which the owner can
-- list and sign out: an id to name it by, when it was last used (to within
-- a few minutes) and the User-Agent it signed in with.
ALTER TABLE auth_tokens
    ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY,
    ADD COLUMN last_used_at timestamptz NOT NULL DEFAULT now(),
    ADD COLUMN user_agent text CHECK (char_length(user_agent) <= 512);
ALTER TABLE auth_tokens ADD CONSTRAINT auth_tokens_id_key UNIQUE (id);

-- Using a token now writes to its row (when it was used, and its expiry
-- moved on), which is no revocation: the servers hear only of a token
-- deleted, given to another user, or cut short.
DROP TRIGGER auth_tokens_revoked ON auth_tokens;
CREATE TRIGGER auth_tokens_deleted AFTER DELETE ON auth_tokens
    FOR EACH ROW EXECUTE FUNCTION auth_tokens_revoked();
CREATE TRIGGER auth_tokens_revoked AFTER UPDATE ON auth_tokens
    FOR EACH ROW
    WHEN (NEW.token_hash IS DISTINCT FROM OLD.token_hash OR NEW.user_id IS DISTINCT FROM OLD.user_id
          OR NEW.expires_at < OLD.expires_at)
    EXECUTE FUNCTION auth_tokens_revoked();
