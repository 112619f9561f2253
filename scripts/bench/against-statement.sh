# Sourced by the benchmarks that run `huddle serve` beside one hand-written
# SQL statement building the same JSON (feed, project-page, pet-feed,
# habit-dashboard). Expects $bindir (PostgreSQL's), $DIR (the cluster's),
# $work, $seconds and $connections.
#
#   against_statement STATEMENT.sql SCRIPT.lua URL [PGBENCH OPTION…]
#
# Two rounds, each the statement under pgbench and then the server under
# wrk (SCRIPT.lua makes the request); prints requests/s and p99 of each and
# the ratio of the sums.
against_statement() {
    local statement=$1 lua=$2 url=$3
    shift 3
    local -a ours=() theirs=()
    local round output rps p99
    printf '%-40s %12s %10s\n' run "requests/s" "p99"
    for round in 1 2; do
        rm -f "$work"/pgbench_log*
        "$bindir/pgbench" -n -f "$statement" "$@" -M prepared -c "$connections" -j 2 -T "$seconds" \
            -l --log-prefix="$work/pgbench_log" -h "$DIR/socket" -U huddle huddle_test >"$work/pgbench.out" 2>&1
        rps=$(awk '/^tps = / { print int($3) }' "$work/pgbench.out")
        # Per-transaction latencies (microseconds, third column) from the log.
        p99=$(cat "$work"/pgbench_log* | awk '{ print $3 }' | sort -n | awk '{ a[NR] = $1 } END { printf "%.2fms", a[int(NR * 0.99)] / 1000 }')
        theirs+=("$rps")
        printf '%-40s %12s %10s\n' "one SQL statement, pgbench (round $round)" "$rps" "$p99"
        output=$(wrk -t2 -c"$connections" -d"${seconds}s" --latency -s "$lua" "$url")
        rps=$(awk '/^Requests\/sec:/ { print $2 }' <<<"$output")
        p99=$(awk '$1 == "99%" { print $2 }' <<<"$output")
        ours+=("$rps")
        printf '%-40s %12s %10s\n' "huddle serve, wrk (round $round)" "$rps" "$p99"
    done
    awk -v a="${ours[0]}" -v b="${ours[1]}" -v c="${theirs[0]}" -v d="${theirs[1]}" \
        'BEGIN { printf "huddle / single statement: %.2f\n", (a + b) / (c + d) }'
}
