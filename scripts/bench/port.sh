# Sourced by the benchmarks that start `huddle serve` on a port of their own.
# bench_port_free PORT fails when something already listens there: a server
# left from an earlier run would answer the benchmark's requests, while the
# benchmark's own server, refused the port, exited unnoticed.
bench_port_free() {
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then
        echo "port $1 is taken (a server left from an earlier run?): stop it and run again" >&2
        exit 1
    fi
}
