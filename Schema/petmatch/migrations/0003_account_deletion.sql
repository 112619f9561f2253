-- Deleting an account (deleteAccount): who added a staff member is
-- forgotten with them, and a pet's last editor leaving is not an edit of
-- the pet (the staff check would refuse it).
ALTER TABLE shelter_staff
    DROP CONSTRAINT shelter_staff_added_by_fkey,
    ADD CONSTRAINT shelter_staff_added_by_fkey FOREIGN KEY (added_by) REFERENCES users ON DELETE SET NULL;

CREATE OR REPLACE FUNCTION pets_check_staff() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND NEW.updated_by IS NULL AND (to_jsonb(NEW) - 'updated_by') = (to_jsonb(OLD) - 'updated_by') THEN
        RETURN NEW;
    END IF;
    IF TG_OP = 'UPDATE' AND NEW.shelter_id <> OLD.shelter_id THEN
        RAISE EXCEPTION 'a pet stays with its shelter' USING ERRCODE = 'PM003';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM shelter_staff s WHERE s.shelter_id = NEW.shelter_id AND s.user_id = NEW.updated_by) THEN
        RAISE EXCEPTION 'only the shelter''s staff may change its pets' USING ERRCODE = 'PM002';
    END IF;
    IF TG_OP = 'UPDATE' THEN
        NEW.updated_at := now();
        IF NEW.status <> OLD.status THEN
            NEW.status_changed_at := now();
        END IF;
    END IF;
    RETURN NEW;
END $$;
