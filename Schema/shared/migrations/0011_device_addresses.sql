-- The client address a device signed in from, kept only when the operator
-- sets record-device-addresses (it is personal data), and shown to the
-- account's owner among their signed-in devices.
ALTER TABLE auth_tokens ADD COLUMN ip_address text CHECK (length(ip_address) <= 64);
