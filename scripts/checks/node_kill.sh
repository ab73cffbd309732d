#!/usr/bin/env bash
# Node-kill check: two passkeyd nodes on one throwaway PostgreSQL; refresh chains rotate through node 1, which is
# killed with SIGKILL under that load; node 2 must refuse every token node 1 acknowledged rotating.
# Usage: scripts/checks/node_kill.sh [path/to/passkeyd]
set -euo pipefail
cd "$(dirname "$0")/../.."
binary="${1:-.build/debug/passkeyd}"
source scripts/dev/throwaway-postgres.sh
work=""
servers=()
cleanup() {
  for pid in "${servers[@]+"${servers[@]}"}"; do kill -KILL "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  stop_throwaway_postgres
  if [ -n "$work" ]; then rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
start_throwaway_postgres
url="$PASSKEYD_TEST_DATABASE_URL"
unset PASSKEYD_TEST_DATABASE_URL
work="$(mktemp -d)"
ports=()
for node in 1 2; do
  port="$(free_port)"
  ports+=("$port")
  # Both nodes share the issuer (node 1's address), as nodes behind one load balancer do.
  # Without the refresh retry window: a token acknowledged rotating whose successor's rotation died with node A
  # would otherwise be a retry of a lost answer, not the reuse this check counts on.
  PASSKEYD_DATABASE_URL="$url" PASSKEYD_RATE_LIMIT_REQUESTS_PER_MINUTE=0 PASSKEYD_TOKENS_REFRESH_TOKEN_REUSE_GRACE_SECONDS=0 \
    PASSKEYD_ISSUER="http://127.0.0.1:${ports[0]}/" PASSKEYD_ADMIN_LISTEN= \
    "$binary" serve --config Config/passkeyd.json --port "$port" --data-dir "$work/data$node" 2>"$work/node$node.log" &
  servers+=($!)
  wait_ready "$port" || true  # a server that is not ready fails the checks that follow
done
client="$(default_client_id)"
loadgen="$(dirname "$binary")/passkeyd-loadgen"
tokens=()
for _ in 1 2 3 4; do
  tokens+=("$("$loadgen" --url "http://127.0.0.1:${ports[0]}" --client-id "$client" --once |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["refresh_token"])')")
done
python3 scripts/checks/node_kill.py "http://127.0.0.1:${ports[0]}" "http://127.0.0.1:${ports[1]}" "$client" "$work" \
  "${tokens[@]}" &
load=$!
sleep 2
kill -KILL "${servers[0]}"
wait "${servers[0]}" 2>/dev/null || true
touch "$work/killed"
status=0
wait "$load" || status=$?
exit "$status"
