-- Deleting an account (deleteAccount) keeps the stories: a project, its
-- snippets and the votes of finished rounds stay, their person gone
-- (NULL, shown as the shared "deleted user"). A deleted voter's votes in
-- rounds still open go with them (the app removes them first): a result
-- is counted from the people still there.
ALTER TABLE projects ALTER owner_id DROP NOT NULL,
    DROP CONSTRAINT projects_owner_id_fkey,
    ADD CONSTRAINT projects_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES users ON DELETE SET NULL;
ALTER TABLE project_members
    DROP CONSTRAINT project_members_invited_by_fkey,
    ADD CONSTRAINT project_members_invited_by_fkey FOREIGN KEY (invited_by) REFERENCES users ON DELETE SET NULL;
ALTER TABLE snippets ALTER author_id DROP NOT NULL,
    DROP CONSTRAINT snippets_author_id_fkey,
    ADD CONSTRAINT snippets_author_id_fkey FOREIGN KEY (author_id) REFERENCES users ON DELETE SET NULL;
-- One vote per voter and snippet still, but any number by deleted voters.
ALTER TABLE votes DROP CONSTRAINT votes_pkey,
    ALTER voter_id DROP NOT NULL,
    ADD CONSTRAINT votes_snippet_voter UNIQUE (snippet_id, voter_id),
    DROP CONSTRAINT votes_voter_id_fkey,
    ADD CONSTRAINT votes_voter_id_fkey FOREIGN KEY (voter_id) REFERENCES users ON DELETE SET NULL;

-- A snippet never changes once posted, but for its author leaving.
CREATE OR REPLACE FUNCTION snippets_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.author_id IS NULL AND (to_jsonb(NEW) - 'author_id') = (to_jsonb(OLD) - 'author_id') THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'a snippet never changes once posted' USING ERRCODE = 'PR004';
END $$;

-- No karma for no one.
CREATE OR REPLACE FUNCTION prolific_award(user_id bigint, reason text, subject_id bigint) RETURNS void LANGUAGE sql AS $$
    INSERT INTO karma_awards (user_id, reason, subject_id, points)
    SELECT user_id, reason, subject_id, CASE reason
        WHEN 'PROJECT_CREATED' THEN 5 WHEN 'SNIPPET_SUBMITTED' THEN 2 WHEN 'VOTED' THEN 1 WHEN 'ROUND_WON' THEN 10 END
    WHERE user_id IS NOT NULL
    ON CONFLICT DO NOTHING
$$;

-- A round's end: the history is the remaining people's, and of authors still there.
CREATE OR REPLACE FUNCTION rounds_after_end() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.winner_id IS NOT NULL THEN
        PERFORM prolific_award((SELECT author_id FROM snippets WHERE id = NEW.winner_id), 'ROUND_WON', NEW.id);
    END IF;
    INSERT INTO voter_rounds (voter_id, round_id, completed_at, authors)
    SELECT v.voter_id, v.round_id, NEW.completed_at, coalesce(array_agg(DISTINCT s.author_id) FILTER (WHERE s.author_id IS NOT NULL), '{}')
    FROM votes v JOIN snippets s ON s.id = v.snippet_id WHERE v.round_id = NEW.id AND v.voter_id IS NOT NULL
    GROUP BY v.voter_id, v.round_id;
    PERFORM prolific_refresh_habits(ARRAY(SELECT DISTINCT voter_id FROM votes WHERE round_id = NEW.id AND voter_id IS NOT NULL));
    RETURN NEW;
END $$;
