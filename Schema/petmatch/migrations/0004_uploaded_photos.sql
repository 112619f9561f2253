-- A pet's photo is a URL kept elsewhere or a picture uploaded to Huddle
-- (media, remade). An uploaded photo belongs to the pet, not to the staff
-- member who sent it: it goes when the photo is removed or the pet is. (A
-- reordering deletes and inserts the rows in one statement; the picture of
-- a row inserted again stays, which the trigger checks at the statement's end.)
ALTER TABLE pet_photos
    ALTER COLUMN url DROP NOT NULL,
    ADD COLUMN media_id bigint UNIQUE REFERENCES media (id) ON DELETE CASCADE,
    ADD CONSTRAINT pet_photos_one_source CHECK ((url IS NULL) <> (media_id IS NULL));

CREATE FUNCTION pet_photos_remove_media() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM media WHERE id = OLD.media_id AND NOT EXISTS (SELECT 1 FROM pet_photos WHERE media_id = OLD.media_id);
    RETURN NULL;
END
$$;
CREATE TRIGGER pet_photos_remove_media AFTER DELETE ON pet_photos
    FOR EACH ROW WHEN (OLD.media_id IS NOT NULL) EXECUTE FUNCTION pet_photos_remove_media();
