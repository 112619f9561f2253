-- Any address an account may have can be queued: one SMTP cannot carry
-- (not ASCII) is given up as dead when its turn comes, rather than
-- refusing the sign-up or the change that queued it.
ALTER TABLE email_outbox DROP CONSTRAINT email_outbox_recipient_check,
    ADD CONSTRAINT email_outbox_recipient_check CHECK (length(recipient) BETWEEN 3 AND 254);
