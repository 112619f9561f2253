# Sourced by the benchmarks that run `huddle serve` beside one hand-written
# SQL statement building the same JSON (feed, project-page, pet-feed,
# habit-dashboard). Expects $bindir (PostgreSQL's), $DIR (the cluster's),
# $work, $seconds and $connections.
#
#   against_statement NAME STATEMENT.sql SCRIPT.lua URL [PGBENCH OPTION…]
#
# Two rounds, each the statement under pgbench and then the server under
# wrk (SCRIPT.lua makes the request); prints requests/s and p99 of each and
# the ratio of the sums, and reports them (report.sh) as NAME.
. scripts/bench/report.sh
against_statement() {
    local name=$1 statement=$2 lua=$3 url=$4
    shift 4
    local -a ours=() theirs=() our_p99=() their_p99=()
    local round output rps p99
    printf '%-40s %12s %10s\n' run "requests/s" "p99"
    for round in 1 2; do
        rm -f "$work"/pgbench_log*
        "$bindir/pgbench" -n -f "$statement" "$@" -M prepared -c "$connections" -j 2 -T "$seconds" \
            -l --log-prefix="$work/pgbench_log" -h "$DIR/socket" -U huddle "$BENCH_DATABASE" >"$work/pgbench.out" 2>&1
        rps=$(awk '/^tps = / { print int($3) }' "$work/pgbench.out")
        # Per-transaction latencies (microseconds, third column) from the log.
        p99=$(cat "$work"/pgbench_log* | awk '{ print $3 }' | sort -n | awk '{ a[NR] = $1 } END { printf "%.2fms", a[int(NR * 0.99)] / 1000 }')
        theirs+=("$rps")
        their_p99+=("$p99")
        printf '%-40s %12s %10s\n' "one SQL statement, pgbench (round $round)" "$rps" "$p99"
        output=$(wrk -t2 -c"$connections" -d"${seconds}s" --latency -s "$lua" "$url")
        rps=$(awk '/^Requests\/sec:/ { print $2 }' <<<"$output")
        p99=$(awk '$1 == "99%" { print $2 }' <<<"$output")
        ours+=("$rps")
        our_p99+=("$p99")
        printf '%-40s %12s %10s\n' "huddle serve, wrk (round $round)" "$rps" "$p99"
    done
    local ratio
    ratio=$(awk -v a="${ours[0]}" -v b="${ours[1]}" -v c="${theirs[0]}" -v d="${theirs[1]}" 'BEGIN { printf "%.2f", (a + b) / (c + d) }')
    echo "huddle / single statement: $ratio"
    bench_report "$name" "$(echo "(${ours[0]} + ${ours[1]}) / 2" | bc -l)" "one SQL statement (pgbench)" \
        "$(echo "(${theirs[0]} + ${theirs[1]}) / 2" | bc -l)" "$ratio" "requests/s" \
        "$(bench_worse_latency "${our_p99[@]}")" "$(bench_worse_latency "${their_p99[@]}")"
}
