-- "Use user analytics as a tool to get an overview of activity on projects
-- & snippets", and "rank ... based on simple factors like votes, views":
-- how many times a project's page was opened, and a snippet, by the hour.
-- Only counts are kept, never who read: a process counts reads in memory
-- (each reader once per key and hour until its next write) and adds them
-- here in batches, through the two functions below.
CREATE TABLE project_view_hours (
    project_id bigint NOT NULL REFERENCES projects ON DELETE CASCADE,
    hour timestamptz NOT NULL CHECK (extract(epoch FROM hour) % 3600 = 0),
    views integer NOT NULL CHECK (views > 0),
    PRIMARY KEY (project_id, hour)
);

CREATE TABLE snippet_view_hours (
    snippet_id bigint NOT NULL REFERENCES snippets ON DELETE CASCADE,
    hour timestamptz NOT NULL CHECK (extract(epoch FROM hour) % 3600 = 0),
    views integer NOT NULL CHECK (views > 0),
    -- Kept here too: a project's page of activity sums its snippets' views by hour.
    project_id bigint NOT NULL REFERENCES projects ON DELETE CASCADE,
    PRIMARY KEY (snippet_id, hour)
);
CREATE INDEX snippet_view_hours_project ON snippet_view_hours (project_id, hour);
-- What the hourly prune of counts older than view-history-days reads.
CREATE INDEX project_view_hours_hour ON project_view_hours (hour);
CREATE INDEX snippet_view_hours_hour ON snippet_view_hours (hour);
CREATE INDEX votes_snippet_time ON votes (snippet_id, created_at);

-- A batch of project views: a key and hour come once. A view by someone
-- signed in (each once an hour) warms the project a little (a vote is 1, a
-- snippet 3), so trending follows what people open; views by no one in
-- particular, which anyone can make in numbers, do not. Projects gone
-- since are skipped.
CREATE FUNCTION prolific_add_project_views(project_ids bigint[], hour_starts bigint[], counts integer[], signed_in_counts integer[])
RETURNS void LANGUAGE sql AS $$
    INSERT INTO project_view_hours AS h (project_id, hour, views)
    SELECT v.project, to_timestamp(v.hour), v.views
    FROM unnest(project_ids, hour_starts, counts) AS v(project, hour, views) JOIN projects p ON p.id = v.project
    WHERE v.views > 0
    ORDER BY v.project, v.hour
    ON CONFLICT (project_id, hour) DO UPDATE SET views = h.views + EXCLUDED.views;

    -- In id order, as every batch takes them: two processes' batches wait, never deadlock.
    SELECT 1 FROM projects WHERE id IN (SELECT project FROM unnest(project_ids, signed_in_counts) AS s(project, n) WHERE n > 0)
    ORDER BY id FOR NO KEY UPDATE;

    UPDATE projects p SET heat = prolific_heat_add(p.heat, 0.1 * v.signed_in, now())
    FROM (SELECT project, sum(n) AS signed_in FROM unnest(project_ids, signed_in_counts) AS s(project, n)
          GROUP BY project HAVING sum(n) > 0) v
    WHERE p.id = v.project;
$$;

CREATE FUNCTION prolific_add_snippet_views(snippet_ids bigint[], hour_starts bigint[], counts integer[], signed_in_counts integer[])
RETURNS void LANGUAGE sql AS $$
    INSERT INTO snippet_view_hours AS h (snippet_id, hour, views, project_id)
    SELECT v.snippet, to_timestamp(v.hour), v.views, s.project_id
    FROM unnest(snippet_ids, hour_starts, counts) AS v(snippet, hour, views) JOIN snippets s ON s.id = v.snippet
    WHERE v.views > 0
    ORDER BY v.snippet, v.hour
    ON CONFLICT (snippet_id, hour) DO UPDATE SET views = h.views + EXCLUDED.views;
$$;
