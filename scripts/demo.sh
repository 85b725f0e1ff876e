#!/usr/bin/env bash
# Runs real gqlc commands against the local AppSync-compatible server (DevServers/AppSyncLocal) on the blog
# example, shows each command and its output, and stops the server afterwards, also on failure or Ctrl-C.
# The output is saved to .build/demo-output.txt as well. `make demo` builds gqlc and the venv first.
#
# Each step names the exit status it expects; the demo fails if a command ends otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

GQLC_BIN=${GQLC_BIN:-.build/debug/gqlc}
PYTHON=${PYTHON:-.venv/bin/python}
OUTPUT=.build/demo-output.txt
# URLSession would send loopback traffic through a proxy.
unset http_proxy https_proxy all_proxy no_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY NO_PROXY

[ -x "$GQLC_BIN" ] || { echo "demo: $GQLC_BIN not found; run 'swift build' (or 'make demo')" >&2; exit 1; }
[ -x "$PYTHON" ] || { echo "demo: $PYTHON not found; run 'make venv'" >&2; exit 1; }

# MARK: The server

SERVER_PID=""
SERVER_LOG=$(mktemp -t gqlc-demo-server.XXXXXX)
DEMO_DIR=$(mktemp -d -t gqlc-demo.XXXXXX)
export DEMO_DIR
stop_server() {
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    rm -f "$SERVER_LOG"
    rm -rf "$DEMO_DIR"
}
trap stop_server EXIT
trap 'exit 130' INT TERM

"$PYTHON" DevServers/AppSyncLocal/appsync-local --schema schema-examples/blog.json \
    --seed schema-examples/blog-seed.json --port 0 >"$SERVER_LOG" 2>&1 &
SERVER_PID=$!
# The first stdout line is the endpoint URL.
for _ in $(seq 100); do
    URL=$(head -n 1 "$SERVER_LOG")
    case "$URL" in http://*) break ;; esac
    kill -0 "$SERVER_PID" 2>/dev/null || { echo "demo: the server did not start:" >&2; cat "$SERVER_LOG" >&2; exit 1; }
    sleep 0.1
done
case "$URL" in http://*) ;; *) echo "demo: the server printed no URL within 10 s" >&2; exit 1 ;; esac

# MARK: The commands

PATH="$(cd "$(dirname "$GQLC_BIN")" && pwd):$PATH"
export PATH GQLC_SCHEMA=schema-examples/blog.json GQLC_ENDPOINT=$URL

# step EXPECTED 'COMMAND': prints "$ COMMAND", runs it, and shows a non-zero exit status.
step() {
    local expected=$1 command=$2 status=0
    printf '\n$ %s\n' "$command"
    bash -o pipefail -c "$command" || status=$?
    if [ "$status" -ne 0 ]; then echo "[exit status $status]"; fi
    if [ "$status" -ne "$expected" ]; then
        echo "demo: expected exit status $expected from: $command" >&2
        return 1
    fi
}

demo() {
    echo "# gqlc against appsync-local (the blog example, seeded), started on a free port:"
    echo "\$ export GQLC_SCHEMA=$GQLC_SCHEMA GQLC_ENDPOINT=$GQLC_ENDPOINT"
    echo "# Output is compact because it is not a terminal here; --pretty indents it."
    step 0 "gqlc models"
    step 0 "gqlc get Post --id p1 --include comments"
    step 0 "gqlc list Comment --limit 100 --where post=p1"
    if command -v jq >/dev/null; then
        step 0 "gqlc list Post --where status=PUBLISHED --where 'rating>=4' --output ndjson | jq -r .title"
    else
        echo
        echo "# (jq is not installed: skipping 'gqlc list Post ... --output ndjson | jq -r .title')"
    fi
    step 0 "gqlc list Post --limit 2 --output ndjson"
    step 0 "gqlc list Post --fields id,title,status,rating --output table"
    step 0 "gqlc list Comment --count --where post=p1"
    step 0 "printf '%s\\n' '{\"id\":\"n1\",\"title\":\"Bulk one\",\"blogId\":\"b1\"}' '{\"id\":\"n2\",\"title\":\"Bulk two\",\"blogId\":\"b1\"}' | gqlc create Post --input - --output ndjson"
    step 0 "gqlc delete Post --where 'title^=Bulk' --yes --output ndjson"
    step 0 "gqlc schema pull --out \"\$DEMO_DIR/pulled.json\" && gqlc --schema \"\$DEMO_DIR/pulled.json\" models"
    step 0 "gqlc create Post title='Hello from gqlc' status=DRAFT blog=b1 tags:='[\"demo\",\"cli\"]'"
    step 0 "gqlc update Post --id p3 status=PUBLISHED --if status=DRAFT"
    step 1 "gqlc update Post --id p3 status=ARCHIVED --if status=DRAFT"
    step 0 "gqlc delete Comment --id c12"
    step 4 "gqlc get Comment --id c12"
}

mkdir -p "$(dirname "$OUTPUT")"
demo 2>&1 | tee "$OUTPUT"
echo
echo "(saved to $OUTPUT)"
