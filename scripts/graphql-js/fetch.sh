#!/usr/bin/env bash
# Unpacks graphql-js 16 from Debian's node-graphql package into
# .huddle/graphql-js, for differential tests and benchmarks. Installing the
# package with apt would conflict with the node already on the machine, so
# it is only unpacked. Prints the path of the graphql module.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
dest="$root/.huddle/graphql-js"
module="$dest/usr/share/nodejs/graphql"
if [ ! -f "$module/package.json" ]; then
    command -v node >/dev/null || { echo "node is required: apt-get install nodejs" >&2; exit 1; }
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
    (cd "$work" && apt-get download node-graphql >/dev/null 2>&1) || {
        apt-get update -qq >/dev/null && (cd "$work" && apt-get download node-graphql >/dev/null)
    }
    mkdir -p "$dest"
    dpkg -x "$work"/node-graphql_*.deb "$dest"
fi
echo "$module"
