-- The VAPID public key the deployment's browsers subscribed with: the first
-- process to push records it, and a process started with another key pushes
-- to no browser (every subscription is bound to the key it was made with).
-- Changing keys on purpose: UPDATE this row, and every browser subscribes again.
CREATE TABLE push_vapid_key (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    public_key text NOT NULL CHECK (public_key ~ '^[A-Za-z0-9_-]{80,100}$'),
    recorded_at timestamptz NOT NULL DEFAULT now()
);
