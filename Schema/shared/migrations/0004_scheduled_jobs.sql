-- The durable scheduler's work, shared by the apps (a round's end, a
-- reminder): one row per job, due at `due_at`. A server process claims a
-- due row with FOR UPDATE SKIP LOCKED in the transaction that performs the
-- work and deletes it there, so the work is done exactly once: a process
-- that dies mid-way rolls back and the row is due again for the others.
-- One job per (kind, subject): scheduling again moves it.
CREATE TABLE scheduled_jobs (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind text NOT NULL CHECK (kind ~ '^[a-z][a-z0-9_.-]{0,63}$'),
    subject_id bigint NOT NULL,
    due_at timestamptz NOT NULL,
    -- Failed attempts so far, and the last failure's text, for operators.
    attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    last_error text,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (kind, subject_id)
);
CREATE INDEX scheduled_jobs_due ON scheduled_jobs (due_at, id);
