#!/usr/bin/env bash
# From one node to several: a passkeyd daemon on SQLite (signing keys sealed under a key-encryption key) signs a user
# up and logs in; it stops; `passkeyd database copy` moves its database into a throwaway PostgreSQL; a daemon on
# PostgreSQL (another data directory, the same key file) then serves the same JWKS, takes the refresh token the
# SQLite node issued and refuses its rotated predecessor as reuse; a second copy into the same database is refused.
# The real binary end to end; DatabaseCopyTests covers every table value for value. About five seconds.
# Usage: scripts/checks/database_copy.sh [path/to/passkeyd]
set -euo pipefail
cd "$(dirname "$0")/../.."
binary="${1:-.build/debug/passkeyd}"
loadgen="$(dirname "$binary")/passkeyd-loadgen"
source scripts/dev/throwaway-postgres.sh
work=""
server=""
status=0
cleanup() {
  if [ -n "$server" ]; then kill -TERM "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  if [ "$status" -ne 0 ] && [ -n "$work" ]; then
    for log in "$work"/*.log; do [ -f "$log" ] && { echo "$(basename "$log"):"; tail -10 "$log"; }; done
  fi
  stop_throwaway_postgres
  if [ -n "$work" ]; then rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
start_throwaway_postgres
target="$PASSKEYD_TEST_DATABASE_URL"
unset PASSKEYD_TEST_DATABASE_URL PASSKEYD_DATABASE_URL
work="$(mktemp -d)"
openssl rand -out "$work/at-rest.kek" 32
chmod 600 "$work/at-rest.kek"
export PASSKEYD_ENCRYPTION_AT_REST_KEY_FILE="$work/at-rest.kek" PASSKEYD_ADMIN_LISTEN=
export PASSKEYD_RATE_LIMIT_REQUESTS_PER_MINUTE=0
# Without the refresh retry window: the rotated token is presented again seconds later and must be reuse.
export PASSKEYD_TOKENS_REFRESH_TOKEN_REUSE_GRACE_SECONDS=0
port="$(free_port)"
export PASSKEYD_ISSUER="http://127.0.0.1:$port/"
client="$(default_client_id)"

check() {  # check NAME CONDITION-STATUS MESSAGE
  if [ "$2" -eq 0 ]; then echo "database_copy: ok   $1"; else echo "database_copy: FAIL $1"; status=1; fi
}
kids() { curl -fsS "http://127.0.0.1:$port/.well-known/jwks.json" | python3 -c \
  'import json, sys; print(" ".join(sorted(k["kid"] for k in json.load(sys.stdin)["keys"])))'; }
refresh() {  # refresh TOKEN: prints the HTTP status, the body to $work/refresh.json
  curl -sS -o "$work/refresh.json" -w '%{http_code}' "http://127.0.0.1:$port/oauth/token" \
    -H 'Content-Type: application/json' \
    -d "{\"grant_type\":\"refresh_token\",\"client_id\":\"$client\",\"refresh_token\":\"$1\"}"
}
token_of() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["refresh_token"])' "$1"; }

"$binary" serve --config Config/passkeyd.json --port "$port" --data-dir "$work/sqlite" 2>"$work/sqlite.log" &
server=$!
wait_ready "$port" || true
"$loadgen" --url "http://127.0.0.1:$port" --once >"$work/tokens.json"
first="$(token_of "$work/tokens.json")"
[ "$(refresh "$first")" = 200 ]; check "the SQLite node rotates its refresh token" $? 
newest="$(token_of "$work/refresh.json")"
kids_before="$(kids)"
kill -TERM "$server"; wait "$server" || true; server=""

set +e
"$binary" database copy --to "$target" --config Config/passkeyd.json --data-dir "$work/sqlite" >"$work/copy.log" 2>&1
copied=$?
set -e
check "database copy: $(head -1 "$work/copy.log")" "$copied"

PASSKEYD_DATABASE_URL="$target" "$binary" serve --config Config/passkeyd.json --port "$port" \
  --data-dir "$work/postgres" 2>"$work/postgres.log" &
server=$!
wait_ready "$port" 30 || true
[ "$(kids)" = "$kids_before" ]; check "the PostgreSQL node publishes the same signing keys ($kids_before)" $?
[ "$(refresh "$newest")" = 200 ]; check "the PostgreSQL node takes the newest refresh token the SQLite node issued" $?
[ "$(refresh "$first")" = 403 ]; check "and refuses its rotated predecessor as reuse (403)" $?
kill -TERM "$server"; wait "$server" || true; server=""

set +e
"$binary" database copy --to "$target" --config Config/passkeyd.json --data-dir "$work/sqlite" >"$work/again.log" 2>&1
again=$?
set -e
[ "$again" -eq 1 ] && grep -q "already holds data" "$work/again.log"
check "a second copy into the same database is refused: $(tail -1 "$work/again.log")" $?
exit "$status"
