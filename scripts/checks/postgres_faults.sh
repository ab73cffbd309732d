#!/usr/bin/env bash
# Fault check: passkeyd on PostgreSQL under load while the database is stopped for three seconds and started
# again. Requests in between must get 503 (not 500, not a hang), the server must recover without a restart, and
# no acknowledged refresh rotation may be lost (every rotated token stays refused, the newest works once).
# Uses a throwaway cluster of its own (it stops it).
# Usage: scripts/checks/postgres_faults.sh [path/to/passkeyd] [fast|immediate]
# `fast` (the default) is `pg_ctl stop -m fast`; `immediate` kills every PostgreSQL process at once, as in a crash
# (a request whose COMMIT was in flight asks the restarted database whether it committed; see postgres_faults.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
binary="${1:-.build/debug/passkeyd}"
mode="${2:-fast}"
source scripts/dev/throwaway-postgres.sh
work=""
server=""
cleanup() {
  if [ -n "$server" ]; then kill -TERM "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  stop_throwaway_postgres
  if [ -n "$work" ]; then rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
start_throwaway_postgres
url="$PASSKEYD_TEST_DATABASE_URL"
unset PASSKEYD_TEST_DATABASE_URL
work="$(mktemp -d)"
port="$(free_port)"
admin_port="$(free_port)"
PASSKEYD_DATABASE_URL="$url&connect_timeout=2" PASSKEYD_RATE_LIMIT_REQUESTS_PER_MINUTE=0 \
  PASSKEYD_ISSUER="http://127.0.0.1:$port/" PASSKEYD_ADMIN_LISTEN="127.0.0.1:$admin_port" \
  "$binary" serve --config Config/passkeyd.json --port "$port" --data-dir "$work/data" 2>"$work/server.log" &
server=$!
wait_ready "$port" || true  # a server that is not ready fails the checks that follow
client="$(default_client_id)"
# Four users signed up and logged in by the load generator's software authenticator: four refresh chains.
loadgen="$(dirname "$binary")/passkeyd-loadgen"
tokens=()
for _ in 1 2 3 4; do
  tokens+=("$("$loadgen" --url "http://127.0.0.1:$port" --client-id "$client" --once |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["refresh_token"])')")
done
python3 scripts/checks/postgres_faults.py "http://127.0.0.1:$port" "$client" 14 "$work" "$mode" "${tokens[@]}" &
load=$!
sleep 3
pause_throwaway_postgres "$mode"
touch "$work/down"
sleep 3
resume_throwaway_postgres
touch "$work/up"
status=0
wait "$load" || status=$?
if [ "$status" -ne 0 ]; then echo "server log:"; grep -v '"status":200' "$work/server.log" | tail -20; fi
# The outage as /metrics tells it (docs/api.md): connections that failed while the database was down, and the pool's
# connections opened again once it was back (more than the pool's first ones). After a failed attempt the node's
# connections fail at once for a second, then one attempt at a time probes (`ConnectGate`): so at most the attempts of
# the moment of the stop (each pooled connection and each COMMIT in doubt: twice the pool; allowed three times), then
# about one a second (allowed two). Without the gate every refused request and every background task tried to connect: thousands.
metrics="$(curl -fsS "http://127.0.0.1:$admin_port/metrics" || true)"
sample() { awk -v name="$1" '$1 == name {print $2}' <<<"$metrics"; }
failures="$(sample passkeyd_postgres_connect_failures_total)"
opened="$(sample passkeyd_postgres_connections_opened_total)"
pool="$(($(sample 'passkeyd_postgres_pool_connections{state="in_use"}') + $(sample 'passkeyd_postgres_pool_connections{state="idle"}')))"
refused="$(cat "$work/refused" 2>/dev/null || echo 0)"
outage_seconds="$(cat "$work/outage_seconds" 2>/dev/null || echo 0)"
allowed=$((3 * pool + 2 * outage_seconds))
if [ "${failures:-0}" -gt 0 ] && [ "${failures:-0}" -le "$allowed" ] && [ "${opened:-0}" -gt "$pool" ]; then
  echo "postgres_faults: ok   /metrics: $failures failed connection attempts for $refused requests refused (allowed $allowed), $opened connections opened for a pool of $pool"
else
  echo "postgres_faults: FAIL /metrics: connect_failures_total ${failures:-missing} (requests refused: $refused, allowed: $allowed), connections_opened_total ${opened:-missing} for a pool of $pool"
  status=1
fi
# Every 500 "outcome unknown" at the kill is a COMMIT in doubt the metrics count as unknown.
answered_unknown="$(cat "$work/unknown" 2>/dev/null || echo 0)"
counted_unknown="$(sample 'passkeyd_postgres_commits_in_doubt_total{outcome="unknown"}')"
if [ -n "$counted_unknown" ] && [ "$counted_unknown" -ge "$answered_unknown" ]; then
  echo "postgres_faults: ok   /metrics: $counted_unknown commits in doubt left unknown, for $answered_unknown answers 500"
else
  echo "postgres_faults: FAIL /metrics: commits_in_doubt_total{outcome=\"unknown\"} ${counted_unknown:-missing} < $answered_unknown answers 500"
  status=1
fi
exit "$status"
