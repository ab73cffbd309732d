#!/usr/bin/env bash
# Runs every test of passkeyd: the Swift test suites (compiler warnings are errors), then the checks that
# use independent tools. Exits non-zero if anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
swift build --build-tests -Xswiftc -warnings-as-errors
# The real binary first (its summary is short); the Swift suites last, so their summary closes the output.
scripts/smoke.sh .build/debug/passkeyd
mkdir -p build

# Independent token check: the debug server on a free port with a fresh data directory, one sign-up and login by
# passkeyd-loadgen's software authenticator, and the tokens verified by PyJWT from discovery and the JWKS.
verify_tokens() {
  if [ ! -x build/venv/bin/python ] || ! build/venv/bin/python -c 'import jwt, cryptography' 2>/dev/null; then
    python3 -m venv build/venv
    build/venv/bin/pip install -q --disable-pip-version-check PyJWT cryptography
  fi
  local work port server status=0
  work="$(mktemp -d)"
  port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  PASSKEYD_ISSUER="http://127.0.0.1:$port/" .build/debug/passkeyd serve --config Config/passkeyd.json \
    --port "$port" --data-dir "$work/data" 2>"$work/server.log" &
  server=$!
  for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
    sleep 0.1
  done
  if .build/debug/passkeyd-loadgen --url "http://127.0.0.1:$port" --once >"$work/tokens.json"; then
    build/venv/bin/python scripts/verify_tokens.py "http://127.0.0.1:$port" "$work/tokens.json" || status=$?
  else
    status=$?
    echo "verify_tokens: FAIL passkeyd-loadgen --once could not sign up and log in"
  fi
  kill -TERM "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  if [ "$status" -ne 0 ]; then echo "verify_tokens: server log:"; tail -20 "$work/server.log"; fi
  rm -rf "$work"
  return "$status"
}
verify_tokens
swift test --skip-build 2>&1 | tee build/swift-test.log
