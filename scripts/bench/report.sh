# Sourced by every benchmark. When BENCH_RESULTS names a file (as
# scripts/bench/all sets it), each figure a benchmark prints is also
# appended to it as one JSON object a line, so that one table can be made
# of every benchmark's run and runs can be compared.
#
#   bench_report BENCHMARK HUDDLE BASELINE_NAME BASELINE RATIO UNIT [HUDDLE_P99 BASELINE_P99]
#
# HUDDLE and BASELINE are in UNIT (requests/s, ns…); RATIO is how many
# times better Huddle is (higher is better whatever the unit); the p99s are
# wrk's or pgbench's latencies as printed (12.3ms, 870.00us, 1.02s).
bench_report() {
    [ -n "${BENCH_RESULTS:-}" ] || return 0
    python3 - "$@" >>"$BENCH_RESULTS" <<'PY'
import json, re, sys
def milliseconds(text):
    match = re.fullmatch(r"([0-9.]+)(us|ms|s)", text or "")
    if not match:
        return None
    return round(float(match.group(1)) * {"us": 0.001, "ms": 1, "s": 1000}[match.group(2)], 3)
def number(text):
    try:
        return float(text)
    except ValueError:
        return None
args = sys.argv[1:] + [""] * (8 - len(sys.argv[1:]))
name, huddle, baseline_name, baseline, ratio, unit, huddle_p99, baseline_p99 = args[:8]
print(json.dumps({
    "benchmark": name, "huddle": number(huddle), "baseline": baseline_name, "baselineValue": number(baseline),
    "ratio": number(ratio), "unit": unit,
    "huddleP99Ms": milliseconds(huddle_p99), "baselineP99Ms": milliseconds(baseline_p99),
}))
PY
}

# The larger of two latencies as wrk and pgbench print them.
bench_worse_latency() {
    python3 - "$@" <<'PY'
import re, sys
def ms(text):
    match = re.fullmatch(r"([0-9.]+)(us|ms|s)", text)
    return float(match.group(1)) * {"us": 0.001, "ms": 1, "s": 1000}[match.group(2)] if match else -1
print(max(sys.argv[1:], key=ms))
PY
}
