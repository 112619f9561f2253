-- Notices outside the app: the devices a user receives them on, the
-- operator's webhook, each notice's deliveries, and what each user wants.
--
-- A device registered by an app: a browser's Web Push subscription, an
-- iPhone's APNs token or an Android phone's FCM token. A device belongs to
-- whoever last registered it (a phone signed in as someone else moves).
CREATE TABLE push_endpoints (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    platform text NOT NULL CHECK (platform IN ('WEB_PUSH', 'APNS', 'FCM')),
    -- The Web Push endpoint URL, the APNs device token (hex), the FCM registration token.
    address text NOT NULL CHECK (length(address) BETWEEN 1 AND 2048),
    p256dh bytea CHECK (octet_length(p256dh) = 65),
    auth bytea CHECK (octet_length(auth) = 16),
    apns_topic text CHECK (length(apns_topic) BETWEEN 1 AND 255),
    apns_environment text CHECK (apns_environment IN ('PRODUCTION', 'DEVELOPMENT')),
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (platform, address),
    CHECK ((platform = 'WEB_PUSH') = (p256dh IS NOT NULL AND auth IS NOT NULL)),
    CHECK (platform <> 'WEB_PUSH' OR address ~ '^https?://'),
    CHECK ((platform = 'APNS') = (apns_topic IS NOT NULL AND apns_environment IS NOT NULL)),
    CHECK (platform <> 'APNS' OR address ~ '^[0-9a-f]{64,200}$')
);
CREATE INDEX push_endpoints_by_user ON push_endpoints (user_id);

-- Whether this deployment posts notices to a webhook: the serving
-- processes say so when they start (the URL and secret stay in their
-- configuration), so that a notice for a user without devices is still
-- queued for the webhook.
CREATE TABLE notice_webhook (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row)
);

-- Which channels a notice reached, for the inbox.
ALTER TABLE notifications ADD COLUMN delivered_to text[] NOT NULL DEFAULT '{}';

-- A notice's delivery to one device or the webhook: made by the
-- scheduler's `notice.deliver` job, which sends it, counts attempts, and
-- ends it 'sent', 'dead' (attempts ran out or refused for good) or
-- 'dropped' (quiet hours outlasted it, a daily cap). A device that goes
-- takes its deliveries with it.
CREATE TABLE notice_deliveries (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    notification_id bigint NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
    channel text NOT NULL CHECK (channel IN ('WEB_PUSH', 'APNS', 'FCM', 'WEBHOOK')),
    endpoint_id bigint REFERENCES push_endpoints (id) ON DELETE CASCADE,
    state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'dead', 'dropped')),
    attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    last_error text CHECK (length(last_error) <= 2000),
    created_at timestamptz NOT NULL DEFAULT now(),
    sent_at timestamptz,
    CHECK ((channel = 'WEBHOOK') = (endpoint_id IS NULL)),
    CHECK ((state = 'sent') = (sent_at IS NOT NULL)),
    UNIQUE NULLS NOT DISTINCT (notification_id, endpoint_id)
);
CREATE INDEX notice_deliveries_by_endpoint ON notice_deliveries (endpoint_id);
-- The daily cap counts a user's promotional pushes.
CREATE INDEX notice_deliveries_sent ON notice_deliveries (sent_at) WHERE state = 'sent';

-- Push, per kind: a row only where the user chose other than the kind's default.
CREATE TABLE notice_preferences (
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind text NOT NULL REFERENCES notification_kinds ON DELETE CASCADE,
    push boolean NOT NULL,
    PRIMARY KEY (user_id, kind)
);

-- When a user wants no push: from `starts` to `ends` (across midnight when
-- `ends` is earlier) in their time zone.
CREATE TABLE quiet_hours (
    user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    starts time NOT NULL,
    ends time NOT NULL CHECK (ends <> starts),
    time_zone text NOT NULL CHECK (length(time_zone) BETWEEN 1 AND 64)
);
