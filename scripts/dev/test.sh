#!/usr/bin/env bash
# Runs every test of passkeyd: the lint, the build (compiler warnings are errors), the checks that use independent
# tools (scripts/checks/), then the Swift test suites. Exits non-zero if anything fails.
# Usage: scripts/dev/test.sh          everything (`make test`, what CI runs)
#        scripts/dev/test.sh swift    the lint, the build and the Swift test suites only (`make check`)
set -euo pipefail
cd "$(dirname "$0")/../.."
mode="${1:-all}"
case "$mode" in
  all | swift) ;;
  *) echo "usage: $0 [swift]" >&2; exit 2 ;;
esac
export PATH="$PATH:/opt/swift/usr/bin"
# Formatting first: any finding of `swift format lint` (configuration in .swift-format) fails the run; `make format`
# fixes what it reports.
if ! swift format lint --strict --recursive --parallel Sources Tests Package.swift; then
  echo "lint: FAIL swift format found the findings above; run \`make format\`" >&2
  exit 1
fi
swift build --build-tests -Xswiftc -warnings-as-errors
# The layout rules of docs/architecture.md: HTTP and a storage driver meet only in the composition root, the core
# imports neither, no target over 25 % of the hand-written lines, no file over 400 (scripts/checks/layout.py).
python3 scripts/checks/layout.py --self-test
python3 scripts/checks/layout.py

# PostgreSQL for the StoragePostgres and multi-node tests: the server PASSKEYD_TEST_DATABASE_URL names, or a
# throwaway cluster started here (loopback, free port, temporary directory) and removed on exit, also on failure.
# If it cannot start, the run fails: the PostgreSQL tests must run here, never be skipped.
source scripts/dev/throwaway-postgres.sh
if [ -z "${PASSKEYD_TEST_DATABASE_URL:-}" ]; then
  trap stop_throwaway_postgres EXIT
  trap 'exit 130' INT TERM
  start_throwaway_postgres
  echo "test PostgreSQL: $PASSKEYD_TEST_DATABASE_URL (throwaway, in $PG_THROWAWAY_DIR)"
else
  echo "test PostgreSQL: PASSKEYD_TEST_DATABASE_URL (given)"
fi
mkdir -p build

# Starts the debug server on a free port with a fresh data directory (extra environment as arguments); sets
# `work`, `port` and `server`.
start_server() {
  work="$(mktemp -d)"
  port="$(free_port)"
  env "$@" PASSKEYD_ISSUER="http://127.0.0.1:$port/" PASSKEYD_ADMIN_LISTEN= .build/debug/passkeyd serve --config Config/passkeyd.json \
    --port "$port" --data-dir "$work/data" 2>"$work/server.log" &
  server=$!
  wait_ready "$port" || true  # a server that is not ready fails the checks that follow
}

# Stops it; shows its log when the check failed ($1 = the check's status).
stop_server() {
  kill -TERM "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  if [ "$1" -ne 0 ]; then echo "server log:"; tail -20 "$work/server.log"; fi
  rm -rf "$work"
}

# Independent token check: one sign-up and login by passkeyd-loadgen's software authenticator, and the tokens
# verified by PyJWT from discovery and the JWKS: both tokens RS256 (the defaults), or both ES256 when the demo client
# sets id_token_signed_response_alg and tokens.access_token_signing_alg is ES256 (`verify_tokens ES256`).
verify_tokens() {
  local status=0 alg="${1:-RS256}"
  if [ "$alg" = RS256 ]; then
    start_server
  else
    start_server PASSKEYD_TOKENS_ACCESS_TOKEN_SIGNING_ALG="$alg" PASSKEYD_CLIENTS="$(python3 -c 'import json, sys
clients = json.load(open("Config/passkeyd.json"))["clients"]
clients[0]["id_token_signed_response_alg"] = sys.argv[1]
print(json.dumps(clients))' "$alg")"
  fi
  if .build/debug/passkeyd-loadgen --url "http://127.0.0.1:$port" --once >"$work/tokens.json"; then
    build/venv/bin/python scripts/checks/verify_tokens.py "http://127.0.0.1:$port" "$work/tokens.json" \
      --access-token-alg "$alg" --id-token-alg "$alg" || status=$?
  else
    status=$?
    echo "verify_tokens: FAIL passkeyd-loadgen --once could not sign up and log in"
  fi
  stop_server "$status"
  return "$status"
}

# Independent client: soft-webauthn signs up and logs in through the Auth0-style API (web and Android origins of
# the demo client), then refresh rotation, reuse detection, revocation, /userinfo and CORS (independent_client.py).
# soft-webauthn never sets UV, hence `preferred` for this server. The client presents the rotated token again at
# once to see reuse detected: without the retry window, which would take that for a retry of a lost answer.
independent_client() {
  local status=0 android
  start_server PASSKEYD_PASSKEYS_USER_VERIFICATION=preferred PASSKEYD_TOKENS_REFRESH_TOKEN_REUSE_GRACE_SECONDS=0
  android="android:apk-key-hash:$(python3 -c 'import base64, json
fingerprint = json.load(open("Config/passkeyd.json"))["clients"][0]["mobile"]["android"]["sha256_cert_fingerprints"][0]
print(base64.urlsafe_b64encode(bytes.fromhex(fingerprint.replace(":", ""))).decode().rstrip("="))')"
  build/venv/bin/python scripts/checks/independent_client.py "http://127.0.0.1:$port" --android-origin "$android" \
    || status=$?
  stop_server "$status"
  return "$status"
}

# The SRP-6a password fallback with PyPI srp as the client: enrolment, login, M2, refusals, the unlock policy
# through /device-events (srp_client.py).
srp_client() {
  local status=0
  start_server
  build/venv/bin/python scripts/checks/srp_client.py "http://127.0.0.1:$port" || status=$?
  stop_server "$status"
  return "$status"
}

# The same independent client against a server on PostgreSQL (a fresh schema of the test database).
independent_client_postgres() {
  local separator="?"
  case "$PASSKEYD_TEST_DATABASE_URL" in *\?*) separator="&" ;; esac
  PASSKEYD_DATABASE_URL="$PASSKEYD_TEST_DATABASE_URL${separator}schema=independent_client_$$_$RANDOM" independent_client
}

# DPoP (RFC 9449) with proofs built by PyJWT: nonces, bound tokens, /userinfo, the refresh grant and a refusal for
# each RFC 9449 §4.3 check, through the daemon (dpop_client.py).
dpop_client() {
  local status=0
  start_server PASSKEYD_PASSKEYS_USER_VERIFICATION=preferred PASSKEYD_DPOP_REQUIRE_NONCE=true
  build/venv/bin/python scripts/checks/dpop_client.py "http://127.0.0.1:$port" || status=$?
  stop_server "$status"
  return "$status"
}

# The DPoP check against a server on PostgreSQL: the remembered proofs and the bound refresh tokens in that driver.
dpop_client_postgres() {
  local separator="?"
  case "$PASSKEYD_TEST_DATABASE_URL" in *\?*) separator="&" ;; esac
  PASSKEYD_DATABASE_URL="$PASSKEYD_TEST_DATABASE_URL${separator}schema=dpop_client_$$_$RANDOM" dpop_client
}

# The checks with independent tools, against the debug binary.
independent_checks() {
  # The real binary first (its summary is short); the Swift suites last, so their summary closes the output.
  scripts/checks/smoke.sh .build/debug/passkeyd
  # A SQLite node on a full 2 MiB tmpfs: 503s, /readyz, recovery once space is freed (root only; skipped otherwise).
  scripts/checks/disk_full.sh .build/debug/passkeyd
  python_tools
  # The audit log: SoftHSM2-signed checkpoints, an independent Go verifier, tamper tests
  # (scripts/checks/audit_log.sh).
  PYTHON=build/venv/bin/python scripts/checks/audit_log.sh .build/debug/passkeyd
  verify_tokens RS256
  verify_tokens ES256
  independent_client
  dpop_client
  independent_client_postgres
  dpop_client_postgres
  srp_client
  # Record mode: sign-ups and logins, good and tampered, through `serve --record`, then `passkeyd replay` on the
  # recordings (every one PASS, with the server's outcome and code); no secret in them
  # (scripts/checks/record_replay.py).
  build/venv/bin/python scripts/checks/record_replay.py .build/debug/passkeyd
  # check-config's exit codes and messages, and packaging/passkeyd.service through systemd-analyze verify.
  scripts/checks/packaging_check.sh .build/debug/passkeyd
  # docs/openapi.yaml: in sync with docs/openapi.json and the binary, valid, and schemathesis against a live daemon.
  PYTHON=build/venv/bin/python scripts/checks/openapi_check.sh .build/debug/passkeyd
  # The demo web app in headless Chromium with a virtual authenticator; a screenshot in build/demo-signed-in.png.
  PYTHON=build/venv/bin/python scripts/checks/browser_check.sh .build/debug/passkeyd
  # The hosted login (issue 38): authlib's code flow with PKCE while headless Chromium drives the hosted page (sign-up,
  # sign-in, a silent /authorize, logout, prompt=none); a screenshot of the page in build/hosted-login-page.png.
  PYTHON=build/venv/bin/python scripts/checks/hosted_login.sh .build/debug/passkeyd
  # PostgreSQL stopped for three seconds under load, then started again: 503s, then recovery without a restart,
  # no acknowledged write lost; once stopped cleanly, once killed as in a crash.
  scripts/checks/postgres_faults.sh .build/debug/passkeyd fast
  scripts/checks/postgres_faults.sh .build/debug/passkeyd immediate
  # kill -9 of one of two nodes under load: every refresh rotation it acknowledged holds on the other node.
  scripts/checks/node_kill.sh .build/debug/passkeyd
  # Three nodes on one database: a ceremony spread over them, a refresh token and an auth session raced over all
  # three (exactly one 200 each), a key rotation in every node's JWKS within the reload interval.
  scripts/checks/three_nodes.sh .build/debug/passkeyd
  # A real failover under load: a pg_auto_failover formation (a monitor, a primary, a synchronous standby) under two
  # nodes; the primary's PostgreSQL killed, then the new primary's keeper and PostgreSQL: nothing acknowledged lost,
  # no 500 or 503 for a committed write, no hang, both nodes recover; each round's write outage printed.
  scripts/checks/failover.sh .build/debug/passkeyd
  # From one node to several: a SQLite node's database moved by `passkeyd database copy` into PostgreSQL, where a
  # node serves the same JWKS and refresh-token families; a second copy into the same database refused.
  scripts/checks/database_copy.sh .build/debug/passkeyd
}

# A function's body runs under `set -e` here because the call is a command of its own, not part of a condition.
if [ "$mode" = all ]; then
  independent_checks
fi
# The PKCS#11 signer's tests need SoftHSM2 (installed above): here they must run, never be skipped.
PASSKEYD_TEST_REQUIRE_SOFTHSM=1 swift test --skip-build 2>&1 | tee build/swift-test.log
