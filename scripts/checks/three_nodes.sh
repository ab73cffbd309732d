#!/usr/bin/env bash
# Three-node check: three passkeyd daemons (own data directories, free ports, one issuer) on one throwaway
# PostgreSQL, driven by scripts/checks/three_nodes.py with the independent client's software authenticator: a ceremony
# spread over the nodes, a refresh token and an auth session each raced over all three (exactly one 200), and
# `passkeyd keys rotate` reaching every node's JWKS within a second, all with one key-encryption key for the
# signing keys (every key in the database sealed at the end). About ten seconds.
# Usage: scripts/checks/three_nodes.sh [path/to/passkeyd]
set -euo pipefail
cd "$(dirname "$0")/../.."
binary="${1:-.build/debug/passkeyd}"
source scripts/dev/throwaway-postgres.sh
work=""
servers=()
status=0
cleanup() {
  for pid in "${servers[@]+"${servers[@]}"}"; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  if [ "$status" -ne 0 ] && [ -n "$work" ]; then
    for log in "$work"/node*.log; do echo "$(basename "$log"):"; grep -v '"status":200' "$log" | tail -10; done
  fi
  stop_throwaway_postgres
  if [ -n "$work" ]; then rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
python_tools
start_throwaway_postgres
# The nodes' settings, exported so that three_nodes.py's `passkeyd keys rotate` runs with the same ones.
export PASSKEYD_DATABASE_URL="$PASSKEYD_TEST_DATABASE_URL"
unset PASSKEYD_TEST_DATABASE_URL
export PASSKEYD_RATE_LIMIT_REQUESTS_PER_MINUTE=0 PASSKEYD_ADMIN_LISTEN=
# Without the refresh retry window: the checks present spent tokens at once and count on reuse (16 at once, one 200).
export PASSKEYD_TOKENS_REFRESH_TOKEN_REUSE_GRACE_SECONDS=0
# soft-webauthn never sets UV (as in test.sh's independent_client).
export PASSKEYD_PASSKEYS_USER_VERIFICATION=preferred
work="$(mktemp -d)"
# One key-encryption key for the token-signing keys, shared by the nodes and by `keys rotate` (docs/deployment.md).
openssl rand -out "$work/at-rest.kek" 32
chmod 600 "$work/at-rest.kek"
export PASSKEYD_ENCRYPTION_AT_REST_KEY_FILE="$work/at-rest.kek"
ports=()
for node in 1 2 3; do ports+=("$(free_port)"); done
# All nodes share the issuer (node 1's address), as nodes behind one load balancer do.
export PASSKEYD_ISSUER="http://127.0.0.1:${ports[0]}/"
for node in 1 2 3; do
  port="${ports[$((node - 1))]}"
  "$binary" serve --config Config/passkeyd.json --port "$port" --data-dir "$work/data$node" 2>"$work/node$node.log" &
  servers+=($!)
  wait_ready "$port" 30 || true  # a server that is not ready fails the checks that follow
done
build/venv/bin/python scripts/checks/three_nodes.py "http://127.0.0.1:${ports[0]}" "http://127.0.0.1:${ports[1]}" \
  "http://127.0.0.1:${ports[2]}" --client-id "$(default_client_id)" --passkeyd "$binary" --data-dir "$work" || status=$?
# Every signing key in the database, the rotated ones included, is sealed ("pkd1" envelopes, no PKCS#8).
unsealed="$(psql "$PASSKEYD_DATABASE_URL" -Atc \
  "SELECT count(*) FROM signing_keys WHERE substring(private_key FROM 1 FOR 4) <> 'pkd1'::bytea")"
total="$(psql "$PASSKEYD_DATABASE_URL" -Atc "SELECT count(*) FROM signing_keys")"
if [ "$unsealed" = "0" ] && [ "$total" -ge 4 ]; then
  echo "three_nodes: ok   all $total signing keys in the database are encrypted (encryption_at_rest.key_file)"
else
  echo "three_nodes: FAIL $unsealed of $total signing keys in the database are not encrypted"
  status=1
fi
exit "$status"
