# Sourced by the benchmarks that run `huddle serve` beside one hand-written
# SQL statement building the same JSON (feed, project-page, pet-feed,
# habit-dashboard). Expects $bindir (PostgreSQL's), $DIR (the cluster's),
# $work, $seconds and $connections.
#
#   against_statement NAME STATEMENT.sql SCRIPT.lua URL [PGBENCH OPTION…]
#
# Two rounds, each the statement under pgbench and then the server under
# wrk (SCRIPT.lua makes the request); prints requests/s and p99 of each and
# the ratio of the sums, and reports them (report.sh) as NAME. Each line
# also gives the CPU time a request (or a transaction) cost the server and
# PostgreSQL's backends, from /proc over the same seconds: on these shared
# machines throughput moves from minute to minute, CPU time a request much
# less, and it says which side a change moved.
. scripts/bench/report.sh

# CPU ticks (USER_HZ) used so far by the server listening on PORT, and by
# the backends of the cluster at $DIR.
_server_ticks() {
    local pid
    pid=$(pgrep -f "serve --port $1" | head -1)
    [ -n "$pid" ] && awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || echo 0
}
# A backend that ends (pgbench's, with its connection) has its time added
# to the postmaster's children's time (cutime, cstime) as it is reaped.
_postgres_ticks() {
    local postmaster
    postmaster=$(head -1 "$DIR/data/postmaster.pid" 2>/dev/null) || { echo 0; return; }
    {
        awk '{ print $16 + $17 }' "/proc/$postmaster/stat" 2>/dev/null
        for pid in $(pgrep -P "$postmaster"); do awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null; done
    } | awk '{ s += $1 } END { print s + 0 }'
}
# Microseconds of CPU per request from a tick difference and a count.
_per_request() { awk -v ticks="$1" -v count="$2" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.0f", count ? ticks * 1e6 / hz / count : 0 }'; }
against_statement() {
    local name=$1 statement=$2 lua=$3 url=$4
    shift 4
    local -a ours=() theirs=() our_p99=() their_p99=()
    local round output rps p99 count postgres0 server0
    local port=${url##*:}
    port=${port%%/*}
    printf '%-40s %12s %10s %20s\n' run "requests/s" "p99" "CPU µs: server, pg"
    for round in 1 2; do
        rm -f "$work"/pgbench_log*
        postgres0=$(_postgres_ticks)
        "$bindir/pgbench" -n -f "$statement" "$@" -M prepared -c "$connections" -j 2 -T "$seconds" \
            -l --log-prefix="$work/pgbench_log" -h "$DIR/socket" -U huddle "$BENCH_DATABASE" >"$work/pgbench.out" 2>&1
        rps=$(awk '/^tps = / { print int($3) }' "$work/pgbench.out")
        count=$(awk '/^number of transactions actually processed:/ { print $NF }' "$work/pgbench.out")
        # Per-transaction latencies (microseconds, third column) from the log.
        p99=$(cat "$work"/pgbench_log* | awk '{ print $3 }' | sort -n | awk '{ a[NR] = $1 } END { printf "%.2fms", a[int(NR * 0.99)] / 1000 }')
        theirs+=("$rps")
        their_p99+=("$p99")
        printf '%-40s %12s %10s %20s\n' "one SQL statement, pgbench (round $round)" "$rps" "$p99" \
            "-, $(_per_request $(($(_postgres_ticks) - postgres0)) "$count")"
        server0=$(_server_ticks "$port")
        postgres0=$(_postgres_ticks)
        output=$(wrk -t2 -c"$connections" -d"${seconds}s" --latency -s "$lua" "$url")
        count=$(awk '/requests in/ { print $1 }' <<<"$output")
        rps=$(awk '/^Requests\/sec:/ { print $2 }' <<<"$output")
        p99=$(awk '$1 == "99%" { print $2 }' <<<"$output")
        ours+=("$rps")
        our_p99+=("$p99")
        printf '%-40s %12s %10s %20s\n' "huddle serve, wrk (round $round)" "$rps" "$p99" \
            "$(_per_request $(($(_server_ticks "$port") - server0)) "$count"), $(_per_request $(($(_postgres_ticks) - postgres0)) "$count")"
    done
    local ratio
    ratio=$(awk -v a="${ours[0]}" -v b="${ours[1]}" -v c="${theirs[0]}" -v d="${theirs[1]}" 'BEGIN { printf "%.2f", (a + b) / (c + d) }')
    echo "huddle / single statement: $ratio"
    bench_report "$name" "$(echo "(${ours[0]} + ${ours[1]}) / 2" | bc -l)" "one SQL statement (pgbench)" \
        "$(echo "(${theirs[0]} + ${theirs[1]}) / 2" | bc -l)" "$ratio" "requests/s" \
        "$(bench_worse_latency "${our_p99[@]}")" "$(bench_worse_latency "${their_p99[@]}")"
}
