-- Each user's inbox, shared by every app. A notice is written in the same
-- transaction as the change it reports, then announced with NOTIFY (the id
-- only); a subscriber that was away reads what it missed from here.
--
-- A notice names what it is about by type and id (`subject`: a friend
-- request, an invitation, a round, ...) and what that belongs to (`scope`:
-- the invitation's session, the round's project), without foreign keys:
-- a deleted subject's notice outlives it, with what it needs copied into
-- `message`. Kinds are rows of `notification_kinds`, which `huddle` fills
-- from the apps it mounts when it migrates (the apps' lists in Swift are
-- the one source).
CREATE TABLE notification_kinds (
    kind text PRIMARY KEY CHECK (kind ~ '^[A-Z][A-Z0-9_]*$'),
    app text NOT NULL
);

CREATE TABLE notifications (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    kind text NOT NULL CONSTRAINT notifications_kind_fkey REFERENCES notification_kinds,
    actor_id bigint REFERENCES users ON DELETE SET NULL,
    message text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now(),
    read_at timestamptz,
    subject_type text,
    subject_id bigint,
    scope_type text,
    scope_id bigint,
    CONSTRAINT notifications_subject CHECK ((subject_type IS NULL) = (subject_id IS NULL)),
    CONSTRAINT notifications_scope CHECK ((scope_type IS NULL) = (scope_id IS NULL) AND (scope_type IS NULL OR subject_type IS NOT NULL))
);
CREATE INDEX notifications_user ON notifications (user_id, id DESC);
CREATE INDEX notifications_unread ON notifications (user_id, id DESC) WHERE read_at IS NULL;
