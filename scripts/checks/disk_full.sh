#!/usr/bin/env bash
# Disk-full check: a SQLite node on a 2 MiB tmpfs is filled with sign-ups until writes fail. Each refusal must be
# 503 (never 500), logged as "database disk full" (never "bug?"), and /readyz must say so; once a 256 KiB filler
# placed beforehand is deleted, writes go on without a restart; then the node is stopped on a full volume, started
# on it again (it starts, not ready), and writes go on once the volume grows. Needs root (mount); skipped otherwise.
# Usage: scripts/checks/disk_full.sh [BINARY]   (default .build/debug/passkeyd)
set -euo pipefail
cd "$(dirname "$0")/../.."
binary="${1:-.build/debug/passkeyd}"
loadgen="$(dirname "$binary")/passkeyd-loadgen"
source scripts/dev/lib.sh
if [ "$(id -u)" != 0 ]; then
  echo "disk_full: skipped (mounting a small tmpfs needs root)"
  exit 0
fi
work="$(mktemp -d)"
volume="$work/volume"
mkdir "$volume"
server=""
failures=0
cleanup() {
  if [ -n "$server" ]; then kill -KILL "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  umount "$volume" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
check() { # check DESCRIPTION COMMAND...
  if "${@:2}"; then echo "disk_full: ok   $1"; else echo "disk_full: FAIL $1"; failures=$((failures + 1)); fi
}
if ! mount -t tmpfs -o size=2m tmpfs "$volume"; then
  # A container without CAP_SYS_ADMIN: the Swift suites (SQLiteDiskFullTests, DiskFullTests) still cover the rules.
  echo "disk_full: skipped (this machine refuses to mount a tmpfs)"
  exit 0
fi
dd if=/dev/zero of="$volume/filler" bs=1k count=256 status=none
port="$(free_port)"
client="$(default_client_id)"
start() {
  PASSKEYD_RATE_LIMIT_REQUESTS_PER_MINUTE=0 PASSKEYD_ADMIN_LISTEN= PASSKEYD_ISSUER="http://127.0.0.1:$port/" \
    "$binary" serve --config Config/passkeyd.json --port "$port" --data-dir "$volume/data" 2>>"$work/node.log" &
  server=$!
}
stop() {
  kill -TERM "$server"
  wait "$server" || true
  server=""
}
signups() { # signups N: sign-ups on one client; their errors on stderr
  "$loadgen" --url "http://127.0.0.1:$port" --client-id "$client" --signup "$1" --concurrency 4 2>&1 >/dev/null || true
}
fill() { # fill LABEL: sign up until the disk is full; the refusals must be 503
  local errors
  errors="$(signups 3000)"
  check "$1: writes on the full disk are refused" grep -q "answered 503" <<<"$errors"
  check "$1: no write is answered 500" bash -c '! grep -q "answered 500" <<<"$0"' "$errors"
}
readiness() { curl -s -D - "http://127.0.0.1:$port/readyz"; }

start
wait_ready "$port"
fill "first fill"
ready="$(readiness)"
check "/readyz is 503 with Retry-After and says the disk is full" \
  bash -c 'grep -q "^HTTP/1.1 503" <<<"$0" && grep -qi "^Retry-After: 1" <<<"$0" && grep -q "disk is full" <<<"$0"' \
  "$ready"
check "the refusals are logged as a full disk" grep -q "request refused: database disk full" "$work/node.log"
check "nothing is logged as a bug" bash -c '! grep -q "bug?" "$0"' "$work/node.log"
rm "$volume/filler"
check "once space is freed, writes go on without a restart" test -z "$(signups 5)"
check "and /readyz is ready again" wait_ready "$port" 10
fill "second fill"
stop
start
check "restarted on the full volume, the node answers /healthz" \
  test "$(curl -s -o /dev/null -w '%{http_code}' --retry 20 --retry-connrefused --retry-delay 0 \
    "http://127.0.0.1:$port/healthz")" = 200
check "and /readyz says the disk is full" grep -q "disk is full" <<<"$(readiness)"
mount -o remount,size=3m "$volume"
check "once the volume grows, writes go on without another restart" test -z "$(signups 5)"
stop
if [ "$failures" -gt 0 ]; then
  echo "disk_full: $failures failed"
  exit 1
fi
echo "disk_full: all passed"
