-- The Feed query as one hand-written statement that builds the response
-- JSON in PostgreSQL (json_agg over lateral subqueries), the way Hasura and
-- PostGraphile compile a whole GraphQL query: the baseline Huddle is
-- measured against (scripts/bench/feed). Players come from the session
-- row's player_ids (kept by a trigger), the fastest way this schema offers;
-- the join through session_players measured about 10% slower.
SELECT json_build_object('data', json_build_object('sportsSessions', json_build_object(
    'edges', coalesce(json_agg(json_build_object(
        'cursor', encode(convert_to(page.occurs_at::text || ',' || page.id, 'UTF8'), 'base64'),
        'node', json_build_object(
            'id', encode(convert_to('SportsSession:' || page.id, 'UTF8'), 'base64'),
            'sport', page.sport, 'skillLevel', page.skill_level,
            -- chr(58) is a colon: pgbench would read one before MI as a variable
            'occursAt', to_char(page.occurs_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24' || chr(58) || 'MI' || chr(58) || 'SS.MS"Z"'),
            'durationMinutes', page.duration_minutes, 'capacity', page.capacity, 'occupied', page.occupied,
            'creator', creator.value, 'players', players.value, 'location', place.value))
        ORDER BY page.occurs_at, page.id) FILTER (WHERE page.n <= 50), '[]'),
    'pageInfo', json_build_object(
        'hasNextPage', count(*) > 50,
        'endCursor', max(encode(convert_to(page.occurs_at::text || ',' || page.id, 'UTF8'), 'base64')) FILTER (WHERE page.n = 50)))))
FROM (
    SELECT s.*, row_number() OVER (ORDER BY s.occurs_at, s.id) AS n
    FROM sports_sessions s WHERE s.occurs_at >= now() ORDER BY s.occurs_at, s.id LIMIT 51
) AS page
LEFT JOIN LATERAL (
    SELECT json_build_object('id', encode(convert_to('User:' || u.id, 'UTF8'), 'base64'), 'username', u.username,
                             'firstName', u.first_name, 'lastName', u.last_name) AS value
    FROM users u WHERE u.id = page.creator_id
) AS creator ON true
LEFT JOIN LATERAL (
    SELECT json_agg(json_build_object('id', encode(convert_to('User:' || u.id, 'UTF8'), 'base64'), 'username', u.username)
                    ORDER BY x.position) AS value
    FROM unnest(page.player_ids) WITH ORDINALITY AS x(user_id, position) JOIN users u ON u.id = x.user_id
) AS players ON true
LEFT JOIN LATERAL (
    SELECT json_build_object('name', l.name, 'latitude', l.latitude, 'longitude', l.longitude) AS value
    FROM locations l WHERE l.id = page.location_id
) AS place ON true;
