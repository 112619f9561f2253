-- petMatch's swipe feed (scripts/bench/pet-feed) as one hand-written
-- statement that builds the response JSON in PostgreSQL, the way Hasura and
-- PostGraphile compile a whole GraphQL query: the baseline Huddle is
-- measured against. The viewer is :viewer (pgbench -D viewer=N); the page
-- is 20 pets with photos, breed and shelter, read the way the server reads
-- it (shelters in reach nearest first, each one's pets newest first, the
-- viewer's swipes left out).
WITH v AS (
    SELECT u.id AS viewer, ll_to_earth(coalesce(pr.latitude, u.home_latitude), coalesce(pr.longitude, u.home_longitude)) AS origin,
           coalesce(pr.distance_km, 50) * 1000 AS metres, pr.type, coalesce(pr.sizes, '{}') AS sizes,
           coalesce(pr.age_groups, '{}') AS age_groups, coalesce(pr.genders, '{}') AS genders,
           ARRAY(SELECT b.breed_id FROM pet_preference_breeds b WHERE b.user_id = u.id) AS breeds
    FROM users u LEFT JOIN pet_preferences pr ON pr.user_id = u.id WHERE u.id = :viewer
), page AS (
    SELECT json_build_object('node', json_build_object(
        'id', encode(convert_to('Pet:' || p.id, 'UTF8'), 'base64'), 'name', p.name, 'type', p.type, 'size', p.size,
        'ageGroup', p.age_group, 'gender', p.gender, 'description', p.description,
        'photos', ARRAY(SELECT ph.url FROM pet_photos ph WHERE ph.pet_id = p.id ORDER BY ph.position),
        'distanceKm', near.metres / 1000,
        'primaryBreed', json_build_object('name', (SELECT b.name FROM breeds b WHERE b.id = p.primary_breed_id)),
        'shelter', json_build_object('id', encode(convert_to('Shelter:' || near.id, 'UTF8'), 'base64'), 'name', near.name,
                                     'phone', near.phone, 'email', near.email, 'address', json_build_object('city', near.city)))) AS edge
    FROM v
    CROSS JOIN LATERAL (
        SELECT s.id, s.name, s.phone, s.email, s.city, earth_distance(ll_to_earth(s.latitude, s.longitude), v.origin) AS metres
        FROM shelters s
        WHERE earth_box(v.origin, v.metres) @> ll_to_earth(s.latitude, s.longitude)
          AND earth_distance(ll_to_earth(s.latitude, s.longitude), v.origin) <= v.metres
        ORDER BY metres, s.id
    ) near
    CROSS JOIN LATERAL (
        SELECT p.* FROM pets p
        WHERE p.shelter_id = near.id AND p.status = 'ADOPTABLE' AND (v.type IS NULL OR p.type = v.type)
          AND (cardinality(v.sizes) = 0 OR p.size = ANY(v.sizes)) AND (cardinality(v.age_groups) = 0 OR p.age_group = ANY(v.age_groups))
          AND (cardinality(v.genders) = 0 OR p.gender = ANY(v.genders))
          AND (cardinality(v.breeds) = 0 OR p.primary_breed_id = ANY(v.breeds) OR p.secondary_breed_id = ANY(v.breeds))
          AND NOT EXISTS (SELECT 1 FROM pet_swipes w WHERE w.user_id = v.viewer AND w.pet_id = p.id)
        ORDER BY p.published_at DESC, p.id DESC LIMIT 21
    ) p
    LIMIT 21
)
SELECT json_build_object('data', json_build_object('petMatches', json_build_object(
    'pageInfo', json_build_object('hasNextPage', (SELECT count(*) > 20 FROM page)),
    'edges', coalesce((SELECT json_agg(edge) FROM (SELECT edge FROM page LIMIT 20) first), '[]'))));
