-- On the bench dataset: a hundred friends per user, both ways, so that a
-- page of friends of friends is ten thousand users (scripts/bench/memory
-- and scripts/bench/fairness).
INSERT INTO friendships (user_id, friend_id)
SELECT u.id, 1 + (u.id + k * 37) % 10000 FROM users u, generate_series(1, 100) AS k
WHERE 1 + (u.id + k * 37) % 10000 <> u.id ON CONFLICT DO NOTHING;
INSERT INTO friendships (user_id, friend_id) SELECT friend_id, user_id FROM friendships ON CONFLICT DO NOTHING;
