-- Prolific's project page (scripts/bench/project-page) as one hand-written
-- statement that builds the response JSON in PostgreSQL, the way Hasura and
-- PostGraphile compile a whole GraphQL query: the baseline Huddle is
-- measured against. The viewer is user 1 and the project :project; scores
-- come from the same function the server ranks with.
\set project 999
SELECT json_build_object('data', json_build_object('project', json_build_object(
    'id', encode(convert_to('Project:' || p.id, 'UTF8'), 'base64'),
    'title', p.title, 'seed', p.seed, 'followerCount', p.follower_count,
    'viewerFollows', EXISTS (SELECT 1 FROM project_follows f WHERE f.project_id = p.id AND f.user_id = 1),
    'story', (SELECT coalesce(json_agg(json_build_object('text', s.text, 'author', json_build_object('username', u.username))
                                       ORDER BY r.number), '[]')
              FROM rounds r JOIN snippets s ON s.id = r.winner_id JOIN users u ON u.id = s.author_id WHERE r.project_id = p.id),
    'currentRound', (
        SELECT json_build_object(
            'number', r.number,
            -- chr(58) is a colon: pgbench would read one before MI as a variable
            'endsAt', to_char(r.ends_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24' || chr(58) || 'MI' || chr(58) || 'SS.MS"Z"'),
            'snippetCount', (SELECT count(*) FROM snippets s WHERE s.round_id = r.id),
            'snippets', (
                SELECT coalesce(json_agg(json_build_object(
                    'id', encode(convert_to('Snippet:' || s.id, 'UTF8'), 'base64'), 'text', s.text,
                    'voteCount', c.votes, 'score', c.score,
                    'viewerVoted', EXISTS (SELECT 1 FROM votes v WHERE v.snippet_id = s.id AND v.voter_id = 1),
                    'author', json_build_object('username', u.username, 'karma', coalesce(w.karma, 0)))
                    ORDER BY c.score DESC, c.votes DESC, s.created_at, s.id), '[]')
                FROM prolific_snippet_scores(ARRAY[r.id]) c JOIN snippets s ON s.id = c.snippet_id
                JOIN users u ON u.id = s.author_id LEFT JOIN prolific_writers w ON w.user_id = s.author_id))
        FROM rounds r WHERE r.project_id = p.id AND r.completed_at IS NULL)
)))
FROM projects p WHERE p.id = :project
  AND (NOT p.is_private OR EXISTS (SELECT 1 FROM project_members m WHERE m.project_id = p.id AND m.user_id = 1));
