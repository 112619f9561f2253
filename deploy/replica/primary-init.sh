#!/usr/bin/env bash
# Run once by the postgres image when it initialises the primary: a role the
# standby copies and streams with, the line of pg_hba.conf letting it, and
# synchronous commits.
set -euo pipefail
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
    -v password="$REPLICATION_PASSWORD" <<'SQL'
CREATE ROLE replicator WITH REPLICATION LOGIN PASSWORD :'password';
-- From the next start on (not this initialising one, whose commits would
-- wait for a standby not there yet): a commit waits for a standby to have it.
ALTER SYSTEM SET synchronous_standby_names = '*';
SQL
echo "host replication replicator all scram-sha-256" >>"$PGDATA/pg_hba.conf"
