-- Servers keep the users of tokens they checked lately (TokenCache). A
-- token stops working everywhere at once when its row goes or changes,
-- however that happens (logging out, a user deleted, an operator's SQL):
-- the database itself tells every server, after the change commits.
CREATE FUNCTION auth_tokens_revoked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('huddle_token_revoked', OLD.token_hash);
    RETURN NULL;
END $$;
CREATE TRIGGER auth_tokens_revoked AFTER DELETE OR UPDATE ON auth_tokens
    FOR EACH ROW EXECUTE FUNCTION auth_tokens_revoked();
