-- Notices by mail, for the kinds a user asks for: a delivery of channel
-- 'EMAIL' hands the notice to the outbox (which sends it with its own
-- retries). The webhook's and the mail's deliveries have no device, so a
-- notice's deliveries are one per channel and device.
ALTER TABLE notice_deliveries
    DROP CONSTRAINT notice_deliveries_channel_check,
    ADD CONSTRAINT notice_deliveries_channel_check CHECK (channel IN ('WEB_PUSH', 'APNS', 'FCM', 'WEBHOOK', 'EMAIL')),
    DROP CONSTRAINT notice_deliveries_check,
    ADD CONSTRAINT notice_deliveries_device CHECK ((channel IN ('WEBHOOK', 'EMAIL')) = (endpoint_id IS NULL)),
    DROP CONSTRAINT notice_deliveries_notification_id_endpoint_id_key,
    ADD CONSTRAINT notice_deliveries_once UNIQUE NULLS NOT DISTINCT (notification_id, channel, endpoint_id);

-- Each channel's choice; null: the kind's default.
ALTER TABLE notice_preferences ALTER COLUMN push DROP NOT NULL,
    ADD COLUMN email boolean,
    ADD CONSTRAINT notice_preferences_chosen CHECK (push IS NOT NULL OR email IS NOT NULL);
