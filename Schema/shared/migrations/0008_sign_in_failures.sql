-- Failed sign-ins by the name tried (its SHA-256, lower-cased: no name is
-- stored), whether or not an account has it, so that a throttled answer
-- says nothing of which names exist. Past the free failures each one
-- blocks the name for twice as long as the last, up to a longest wait; a
-- success clears it, and rows unused for that long are removed.
CREATE TABLE sign_in_failures (
    name_hash text PRIMARY KEY,
    failures integer NOT NULL CHECK (failures >= 1),
    last_failure_at timestamptz NOT NULL DEFAULT now(),
    blocked_until timestamptz
);
CREATE INDEX sign_in_failures_last ON sign_in_failures (last_failure_at);
