#!/usr/bin/env bash
# End-to-end smoke test of the real binary, as the README's run command starts it: a fresh data directory,
# /healthz, /readyz, and /metrics on the admin listener (404 on the public port), `passkeyd try` (a sign-up and a
# login, the issuer on --port's port), a database backup beside it, then
# SIGTERM while requests are in flight: every request that was accepted gets its answer, and the process exits 0
# within 5 seconds; then the backup restored.
# Usage: scripts/checks/smoke.sh [BINARY]   (default .build/debug/passkeyd)
set -euo pipefail
cd "$(dirname "$0")/../.."
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
# The README's "Try it": a sign-up and a login with a software passkey, through the shipped issuer, which followed --port.
try_output="$("$binary" try --url "http://127.0.0.1:$port" 2>&1 || true)"
check "passkeyd try signs up and logs in and prints the ID token's claims" grep -q '^ID token claims:$' <<<"$try_output"
check "the shipped issuer followed --port" \
  grep -qx "GET /.well-known/openid-configuration: 200, issuer http://localhost:$port/" <<<"$try_output"
# A backup beside the running server (docs: README, database backup), restored below once it has stopped.
check "database backup beside the running server writes a 0600 file" \
  bash -c '"$0" database backup --out "$1/backup.sqlite" --config Config/passkeyd.json --data-dir "$1/data" >/dev/null &&
    test "$(stat -c %a "$1/backup.sqlite")" = 600' "$binary" "$work"
check "database backup never overwrites a file" \
  bash -c '! "$0" database backup --out "$1/backup.sqlite" --config Config/passkeyd.json --data-dir "$1/data" 2>/dev/null' \
  "$binary" "$work"

# Requests sent before SIGTERM must all be answered. A client opens 16 connections and sends a whole request on
# each, says so, then reads the answers; SIGTERM follows once every request has been sent (waiting for that instead
# of sleeping a fixed time keeps the check meaningful on a loaded machine). Anything but a 200 (a reset, a 503, no
# answer) is a request lost.
python3 - "$port" "$work/inflight" <<'PY' &
import socket, sys
port, out = int(sys.argv[1]), sys.argv[2]
connections = []
for _ in range(16):
    connection = socket.create_connection(("127.0.0.1", port), timeout=60)
    connection.sendall(b"GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    connections.append(connection)
open(out + ".sent", "w").close()
lines = []
for connection in connections:
    answer = b""
    try:
        while chunk := connection.recv(4096):
            answer += chunk
    except OSError as error:
        answer = f"error {error}".encode()
    lines.append(answer.split(b"\r\n", 1)[0].decode(errors="replace") or "no answer")
open(out, "w").write("\n".join(lines) + "\n")
PY
client=$!
for _ in $(seq 1 600); do [ -e "$work/inflight.sent" ] && break; sleep 0.05; done
# And once the server has accepted every connection (its listening socket's accept queue, Recv-Q, is empty): a
# connection still in the kernel's queue at SIGTERM was never the server's, and is reset when it stops listening.
if command -v ss >/dev/null 2>&1; then
  for _ in $(seq 1 600); do
    [ "$(ss -ltnH "sport = :$port" | awk '{print $2; exit}')" = 0 ] && break
    sleep 0.05
  done
fi
start=$(date +%s.%N)
kill -TERM "$server"
status=0
wait "$server" || status=$?
elapsed=$(echo "$(date +%s.%N) - $start" | bc)
wait "$client" || true
check "SIGTERM exits with status 0 (got $status)" test "$status" = 0
check "SIGTERM exits within 5 s (took ${elapsed}s)" test "$(echo "$elapsed < 5" | bc)" = 1
answered=$(grep -c '^HTTP/1.1 200 ' "$work/inflight" || true)
check "every request sent before SIGTERM was answered 200 ($answered of 16: $(sort "$work/inflight" | uniq -c | tr -s ' \n' ' '))" \
  test "$answered" = 16
check "the server logged its stop" grep -q '"msg":"stopped"' "$work/server.log"
check "database restore puts the backup in place and keeps the replaced database aside" \
  bash -c '"$0" database restore --from "$1/backup.sqlite" --config Config/passkeyd.json --data-dir "$1/data" >/dev/null &&
    ls "$1/data" | grep -q "passkeyd.sqlite.before-restore-"' "$binary" "$work"
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
