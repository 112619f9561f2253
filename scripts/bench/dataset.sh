# Sourced by the benchmarks that read the bench dataset (feed, project-page,
# pet-feed, habit-dashboard, memory, fairness).
#
#   bench_dataset APPS     e.g. bench_dataset playmate
#
# Gives the benchmark a fresh copy of the bench dataset of APPS (the shared
# accounts and those apps' data) in a PostgreSQL cluster kept between runs
# (HUDDLE_BENCH_POSTGRES, default /var/tmp/huddle-bench-postgres-UID). The
# dataset is seeded once, into a database that becomes a template when the
# seed succeeds; every run copies that template (CREATE DATABASE …
# TEMPLATE, a file copy: seconds) and drops its copy at the end, so what a
# run writes never reaches the next. A template is named by the apps and a
# hash of what decides its rows (the migrations and the seeding code), so a
# change to either seeds again and the stale template is dropped. The data
# is laid out around the moment it was seeded (sessions to come, rounds
# that end in minutes, streaks up to yesterday), so a template is also kept
# for one UTC day only: the first run of a day seeds again.
#
# Sets bindir, DIR (the cluster: $DIR/socket), BENCH_DATABASE (the copy's
# name) and exports DATABASE_URL. bench_dataset_release drops the copy and
# stops the cluster when no other run is using it; call it from the
# benchmark's EXIT trap.
_bench_sql() { PGOPTIONS='-c client_min_messages=warning' "$bindir/psql" -qAtX -v ON_ERROR_STOP=1 -h "$DIR/socket" -U huddle -d "${2:-postgres}" -c "$1"; }

bench_dataset() {
    local apps=$1
    bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
    [ -x "$bindir/initdb" ] || { echo "PostgreSQL server binaries not found: apt-get install postgresql" >&2; return 1; }
    DIR=${HUDDLE_BENCH_POSTGRES:-/var/tmp/huddle-bench-postgres-$(id -u)}
    # The seeded data comes from this tree's huddle, whatever build is
    # measured (HUDDLE_BINARY): the template is named by this tree's code.
    [ -x .build/release/huddle ] || swift build -c release --product huddle >/dev/null
    # Under the lock in a subshell of its own: an error or a kill lets the
    # lock go with it. The server and the seed get the lock's descriptor
    # closed (9>&-), or a server started here would hold it for good.
    BENCH_DATABASE=$( (
        set -euo pipefail
        flock 9
        _bench_dataset_locked "$apps"
    ) 9>"$DIR.lock") || return 1
    export DATABASE_URL="postgresql:///$BENCH_DATABASE?host=$DIR/socket&user=huddle"
}

# Starts the cluster, seeds the template if it is missing and makes this
# run's copy; prints the copy's name. Runs under the lock.
_bench_dataset_locked() {
    local apps=$1
    local -a as_owner=()
    [ "$(id -u)" -eq 0 ] && as_owner=(runuser -u postgres --)
    local major
    major=$(basename "$(dirname "$bindir")")
    if [ -f "$DIR/data/PG_VERSION" ] && [ "$(cat "$DIR/data/PG_VERSION")" != "$major" ]; then
        "${as_owner[@]}" "$bindir/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1 9>&- || true
        rm -rf "$DIR"
    fi
    if [ ! -f "$DIR/data/PG_VERSION" ]; then
        rm -rf "$DIR"
        mkdir -p "$DIR/socket"
        chmod 755 "$DIR"
        [ "$(id -u)" -eq 0 ] && chown -R postgres:postgres "$DIR"
        "${as_owner[@]}" "$bindir/initdb" -D "$DIR/data" -U huddle --auth=trust -E UTF8 --locale=C.UTF-8 >"$DIR/initdb.log" 2>&1 9>&- \
            || { cat "$DIR/initdb.log" >&2; return 1; }
    fi
    if ! "${as_owner[@]}" "$bindir/pg_ctl" -D "$DIR/data" status >/dev/null 2>&1; then
        "${as_owner[@]}" "$bindir/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w \
            -o "-c listen_addresses='' -c unix_socket_directories='$DIR/socket' -c fsync=off -c max_connections=1000" \
            start >/dev/null 9>&- || { cat "$DIR/server.log" >&2; return 1; }
    fi
    # Copies whose run was killed before it could drop them.
    local copy
    for copy in $(_bench_sql "SELECT datname FROM pg_database WHERE datname LIKE '%\_run\_%'"); do
        kill -0 "${copy##*_run_}" 2>/dev/null || _bench_sql "DROP DATABASE IF EXISTS \"$copy\" WITH (FORCE)" >/dev/null
    done
    local fingerprint template
    fingerprint=$(find Schema Sources/HuddleCore/Seed Sources/*/Seed -type f -print0 | sort -z | xargs -0 cat | md5sum | cut -c1-12)
    template="bench_$(tr ', ' '__' <<<"$apps")_${fingerprint}_$(date -u +%Y%m%d)"
    if [ -z "$(_bench_sql "SELECT 1 FROM pg_database WHERE datname = '$template'")" ]; then
        local stale
        for stale in $(_bench_sql "SELECT datname FROM pg_database WHERE datname LIKE 'bench\_$(tr ', ' '__' <<<"$apps")\_%' AND datname NOT LIKE '%\_run\_%'"); do
            _bench_sql "ALTER DATABASE \"$stale\" IS_TEMPLATE false" >/dev/null
            _bench_sql "DROP DATABASE \"$stale\"" >/dev/null
        done
        _bench_sql "DROP DATABASE IF EXISTS seeding" >/dev/null
        _bench_sql "CREATE DATABASE seeding" >/dev/null
        echo "seeding the bench dataset of $apps once (it is kept as the template $template)" >&2
        local start
        start=$(date +%s.%N)
        DATABASE_URL="postgresql:///seeding?host=$DIR/socket&user=huddle" .build/release/huddle seed --scale bench --apps "$apps" >&2 9>&-
        # Frozen, hinted and all-visible, so that no copy's first reads
        # write pages and index-only scans work from the first request.
        _bench_sql "VACUUM (FREEZE, ANALYZE)" seeding >/dev/null
        _bench_sql "ALTER DATABASE seeding RENAME TO \"$template\"" >/dev/null
        _bench_sql "ALTER DATABASE \"$template\" IS_TEMPLATE true" >/dev/null
        echo "seeding took $(echo "$(date +%s.%N) - $start" | bc) s" >&2
    fi
    local run="${template}_run_$$"
    _bench_sql "DROP DATABASE IF EXISTS \"$run\"" >/dev/null
    _bench_sql "CREATE DATABASE \"$run\" TEMPLATE \"$template\" STRATEGY FILE_COPY" >/dev/null
    # A copy does not take the template's own settings (the migrations set
    # some: ALTER DATABASE … SET), which the planner needs to plan as it
    # would on the seeded database.
    local setting
    for setting in $(_bench_sql "SELECT unnest(s.setconfig) FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase
                                 WHERE d.datname = '$template' AND s.setrole = 0"); do
        _bench_sql "ALTER DATABASE \"$run\" SET ${setting%%=*} = '${setting#*=}'" >/dev/null
    done
    echo "$run"
}

bench_dataset_release() {
    [ -n "${BENCH_DATABASE:-}" ] || return 0
    (
        flock 9
        _bench_sql "DROP DATABASE IF EXISTS \"$BENCH_DATABASE\" WITH (FORCE)" >/dev/null || true
        if [ -z "$(_bench_sql "SELECT 1 FROM pg_database WHERE datname LIKE '%\_run\_%' LIMIT 1")" ]; then
            local -a as_owner=()
            [ "$(id -u)" -eq 0 ] && as_owner=(runuser -u postgres --)
            "${as_owner[@]}" "$bindir/pg_ctl" -D "$DIR/data" -m fast stop >/dev/null 2>&1 9>&- || true
        fi
    ) 9>"$DIR.lock"
}
