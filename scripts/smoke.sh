#!/usr/bin/env bash
# End-to-end smoke test of the real binary, as the README's run command starts it: a fresh data directory,
# /healthz, /readyz, and /metrics on the admin listener (404 on the public port), then SIGTERM while requests are in flight: every request that was
# accepted gets its answer, and the process exits 0 within 2 seconds.
# Usage: scripts/smoke.sh [BINARY]   (default .build/debug/passkeyd)
set -euo pipefail
cd "$(dirname "$0")/.."
binary="${1:-.build/debug/passkeyd}"
work="$(mktemp -d)"
port=$((20000 + RANDOM % 20000))
admin_port=$((port + 2))
failures=0
check() { # check DESCRIPTION COMMAND...
  if "${@:2}"; then echo "smoke: ok   $1"; else echo "smoke: FAIL $1"; failures=$((failures + 1)); fi
}

PASSKEYD_ADMIN_LISTEN="127.0.0.1:$admin_port" \
  "$binary" serve --config Config/passkeyd.json --port "$port" --data-dir "$work/data" 2>"$work/server.log" &
server=$!
trap 'kill -9 $server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do
  curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  sleep 0.1
done
check "GET /healthz is 200" test "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/healthz")" = 200
check "GET /readyz is 200" test "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz")" = 200
check "the SQLite database was created in the data directory" test -f "$work/data/passkeyd.sqlite"
check "GET /metrics is 404 on the public port" \
  test "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/metrics")" = 404
metrics="$(curl -s "http://127.0.0.1:$admin_port/metrics")"
check "/metrics counts the requests just made" grep -q 'passkeyd_http_requests_total{route="/healthz",method="GET",status="200"} 2' <<<"$metrics"

# Requests in flight when SIGTERM arrives must all be answered. A curl that had not connected yet when the server
# stopped accepting is refused at connect (curl exit 7: nothing was sent), which is right; every other outcome
# (a reset, a 503, no answer after connecting) is a request lost.
for i in $(seq 1 16); do
  (curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz"; echo " $?") >"$work/inflight-$i" &
done
sleep 0.2
start=$(date +%s.%N)
kill -TERM "$server"
status=0
wait "$server" || status=$?
elapsed=$(echo "$(date +%s.%N) - $start" | bc)
wait # for the curls
check "SIGTERM exits with status 0 (got $status)" test "$status" = 0
check "SIGTERM exits within 2 s (took ${elapsed}s)" test "$(echo "$elapsed < 2" | bc)" = 1
answered=$(cat "$work"/inflight-* | grep -c '^200 0$' || true)
unsent=$(cat "$work"/inflight-* | grep -c '^000 7$' || true)
check "every request sent before SIGTERM was answered 200 ($answered answered, $unsent refused at connect)" \
  test "$((answered + unsent))" = 16 -a "$answered" -ge 8
check "the server logged its stop" grep -q '"msg":"stopped"' "$work/server.log"
# HTTPS straight from libmicrohttpd: a throwaway self-signed P-256 certificate, a real TLS handshake by curl.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$work/tls.key" -out "$work/tls.crt" \
  -days 1 -subj "/CN=localhost" 2>/dev/null
tls_port=$((port + 1))
PASSKEYD_HTTP_TLS_CERTIFICATE_FILE="$work/tls.crt" PASSKEYD_HTTP_TLS_KEY_FILE="$work/tls.key" PASSKEYD_ADMIN_LISTEN= \
  "$binary" serve --config Config/passkeyd.json --port "$tls_port" --data-dir "$work/tls-data" 2>"$work/tls.log" &
tls_server=$!
for _ in $(seq 1 100); do
  curl -ksS "https://127.0.0.1:$tls_port/healthz" >/dev/null 2>&1 && break
  sleep 0.1
done
check "GET /healthz over HTTPS (tls_certificate_file, tls_key_file) is 200" \
  test "$(curl -ks -o /dev/null -w '%{http_code}' "https://127.0.0.1:$tls_port/healthz")" = 200
check "plain HTTP to the HTTPS port gets no HTTP answer" \
  test "$(curl -s -o /dev/null -m 2 -w '%{http_code}' "http://127.0.0.1:$tls_port/healthz" || true)" = 000
kill -TERM "$tls_server"
wait "$tls_server" || true

if [ "$failures" -ne 0 ]; then
  echo "smoke: $failures check(s) failed; server log:"; cat "$work/server.log"; exit 1
fi
