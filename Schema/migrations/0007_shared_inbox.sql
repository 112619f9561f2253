-- The inbox is shared by every app: a notice names what it is about by
-- type and id (`subject`: a friend request, an invitation, a round, ...)
-- and what that belongs to (`scope`: the invitation's session, the round's
-- project), instead of a column per Playmate table. Kinds are rows of
-- `notification_kinds`, which `huddle` fills from the apps it mounts when
-- it migrates (the apps' lists in Swift are the one source); the existing
-- notices' kinds are kept here until then.
CREATE TABLE notification_kinds (
    kind text PRIMARY KEY CHECK (kind ~ '^[A-Z][A-Z0-9_]*$'),
    app text NOT NULL
);
INSERT INTO notification_kinds (kind, app) SELECT DISTINCT kind, 'unknown' FROM notifications;

ALTER TABLE notifications
    DROP CONSTRAINT notifications_kind_check,
    ADD CONSTRAINT notifications_kind_fkey FOREIGN KEY (kind) REFERENCES notification_kinds,
    ADD COLUMN subject_type text,
    ADD COLUMN subject_id bigint,
    ADD COLUMN scope_type text,
    ADD COLUMN scope_id bigint,
    ADD CONSTRAINT notifications_subject CHECK ((subject_type IS NULL) = (subject_id IS NULL)),
    ADD CONSTRAINT notifications_scope CHECK ((scope_type IS NULL) = (scope_id IS NULL) AND (scope_type IS NULL OR subject_type IS NOT NULL));

UPDATE notifications SET
    subject_type = CASE
        WHEN friend_request_id IS NOT NULL THEN 'FriendRequest'
        WHEN invitation_id IS NOT NULL THEN 'Invitation'
        WHEN session_id IS NOT NULL THEN 'SportsSession'
    END,
    subject_id = coalesce(friend_request_id, invitation_id, session_id),
    scope_type = CASE WHEN invitation_id IS NOT NULL AND session_id IS NOT NULL THEN 'SportsSession' END,
    scope_id = CASE WHEN invitation_id IS NOT NULL AND session_id IS NOT NULL THEN session_id END;

ALTER TABLE notifications
    DROP COLUMN session_id,
    DROP COLUMN invitation_id,
    DROP COLUMN friend_request_id;
