-- A deleted author leaves voters' histories (the app removes them from
-- voter_rounds.authors when the account goes), and the habits are rebuilt
-- only from authors who still have accounts, so a round's end never
-- stops on one who has gone.
CREATE OR REPLACE FUNCTION prolific_refresh_habits(voters bigint[]) RETURNS void LANGUAGE sql AS $$
    DELETE FROM voter_habits WHERE voter_id = ANY(voters);
    INSERT INTO voter_habits (voter_id, author_id)
    SELECT voter.id, habit.author_id FROM unnest(voters) AS voter(id)
    CROSS JOIN LATERAL (
        SELECT author_id FROM (
            SELECT recent.authors, count(*) OVER () AS rounds FROM (
                SELECT h.authors FROM voter_rounds h WHERE h.voter_id = voter.id
                ORDER BY h.completed_at DESC, h.round_id DESC LIMIT 10
            ) recent
        ) windowed, unnest(windowed.authors) AS author_id
        WHERE windowed.rounds >= 3 AND EXISTS (SELECT 1 FROM users u WHERE u.id = author_id)
        GROUP BY author_id, windowed.rounds HAVING count(*) * 2 > windowed.rounds
    ) habit;
$$;

-- Authors already gone (before this migration) leave the histories too.
UPDATE voter_rounds h SET authors = ARRAY(SELECT a FROM unnest(h.authors) a WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = a))
WHERE EXISTS (SELECT 1 FROM unnest(h.authors) a WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = a));
