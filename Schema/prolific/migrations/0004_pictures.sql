-- A snippet may carry one picture, a project a cover. Each belongs to what
-- carries it (no account's: a deleted writer's snippets stay in the story,
-- pictures included) and goes with it, or when the cover is replaced. A
-- private project's pictures are private media (signed URLs only).
ALTER TABLE snippets ADD COLUMN picture_id bigint UNIQUE REFERENCES media (id) ON DELETE SET NULL;
ALTER TABLE projects ADD COLUMN cover_id bigint UNIQUE REFERENCES media (id) ON DELETE SET NULL;

CREATE FUNCTION prolific_remove_picture() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'snippets' THEN
        DELETE FROM media WHERE id = OLD.picture_id;
    ELSIF TG_OP = 'DELETE' OR NEW.cover_id IS DISTINCT FROM OLD.cover_id THEN
        DELETE FROM media WHERE id = OLD.cover_id;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER snippets_remove_picture AFTER DELETE ON snippets
    FOR EACH ROW WHEN (OLD.picture_id IS NOT NULL) EXECUTE FUNCTION prolific_remove_picture();
CREATE TRIGGER projects_remove_cover AFTER DELETE OR UPDATE OF cover_id ON projects
    FOR EACH ROW WHEN (OLD.cover_id IS NOT NULL) EXECUTE FUNCTION prolific_remove_picture();
