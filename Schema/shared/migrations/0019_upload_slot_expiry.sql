-- Spent and expired upload URLs are swept by their expiry, a hundred at a time.
CREATE INDEX upload_slots_expiry ON upload_slots (expires_at);
