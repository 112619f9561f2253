-- When a promotional notice (a like, a favourite pet's edit) was let through
-- to its user's devices. The daily cap counts these, and a notice is let
-- through only while its user's lock is held (NoticeDelivery), so two
-- deliveries for one user running at once cannot both take the last place.
ALTER TABLE notifications ADD COLUMN promotional_push_at timestamptz;
CREATE INDEX notifications_promotional_push ON notifications (user_id, promotional_push_at)
    WHERE promotional_push_at IS NOT NULL;
