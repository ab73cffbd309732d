#!/usr/bin/env bash
# The demo web app in a real browser (scripts/checks/browser_check.py): Debian's chromium + chromium-driver, selenium
# from the test venv, the daemon with web.demo on (issuer http://localhost:PORT/, rate limits off), and two static
# pages on other loopback ports (python -m http.server): one an allowed web origin, one not.
# Usage: scripts/checks/browser_check.sh [BINARY]   (default .build/debug/passkeyd; PYTHON names the venv's python)
# Writes build/demo-signed-in.png.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/dev/lib.sh
binary="${1:-.build/debug/passkeyd}"
python="${PYTHON:-build/venv/bin/python}"
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  echo "browser_check: FAIL chromium and chromium-driver are not installed (scripts/dev/install-deps.sh test)" >&2
  exit 1
fi
mkdir -p build
work="$(mktemp -d)"
mkdir -p "$work/pages"
echo '<!doctype html><title>another origin</title>' >"$work/pages/index.html"
port="$(free_port)"
allowed_port="$(free_port)"
other_port="$(free_port)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
env PASSKEYD_ISSUER="http://localhost:$port/" PASSKEYD_ADMIN_LISTEN= PASSKEYD_WEB_DEMO=true \
  PASSKEYD_WEB_ORIGINS="[\"http://localhost:$allowed_port\"]" \
  PASSKEYD_RATE_LIMIT_REQUESTS_PER_MINUTE=0 PASSKEYD_RATE_LIMIT_REQUESTS_PER_USER_PER_MINUTE=0 \
  "$binary" serve --config Config/passkeyd.json --port "$port" --data-dir "$work/data" 2>"$work/server.log" &
pids+=($!)
python3 -m http.server --bind 127.0.0.1 --directory "$work/pages" "$allowed_port" >/dev/null 2>&1 &
pids+=($!)
python3 -m http.server --bind 127.0.0.1 --directory "$work/pages" "$other_port" >/dev/null 2>&1 &
pids+=($!)
wait_ready "$port"
status=0
"$python" scripts/checks/browser_check.py "http://localhost:$port/demo/" "http://localhost:$allowed_port" \
  "http://localhost:$other_port" "$PWD/build/demo-signed-in.png" || status=$?
if [ "$status" -ne 0 ]; then
  echo "server log (tail):"
  tail -20 "$work/server.log"
fi
exit "$status"
