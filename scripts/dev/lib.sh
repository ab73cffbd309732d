# Helpers shared by the test and benchmark scripts; sourced, never run (scripts/dev/test.sh and throwaway-postgres.sh,
# scripts/bench/, and the checks in scripts/checks/ that start servers themselves).

# Prints a free TCP port on the loopback interface.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_ready PORT [SECONDS]: returns 0 once GET /readyz on 127.0.0.1:PORT answers 200, or 1 (with a message on
# stderr) after SECONDS (default 10; the first start on PostgreSQL creates the tables and may want more).
wait_ready() {
  local tries=$((${2:-10} * 10))
  for _ in $(seq 1 "$tries"); do
    curl -fsS "http://127.0.0.1:$1/readyz" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "$(basename "$0"): the server on port $1 did not become ready" >&2
  return 1
}

# The first client of the default configuration file (the demo app).
default_client_id() {
  python3 -c 'import json; print(json.load(open("Config/passkeyd.json"))["clients"][0]["client_id"])'
}

# The independent tools in one virtualenv, build/venv (created when missing): PyJWT (token checks) and soft-webauthn
# (a software authenticator built on python-fido2 and `cryptography`, sharing no code with passkeyd).
python_tools() {
  if [ ! -x build/venv/bin/python ] || ! build/venv/bin/python -c 'import jwt, cryptography, soft_webauthn' 2>/dev/null; then
    mkdir -p build
    python3 -m venv build/venv
    build/venv/bin/pip install -q --disable-pip-version-check PyJWT cryptography soft-webauthn
  fi
  # PyPI srp: the independent SRP-6a client of the password-fallback check.
  if ! build/venv/bin/python -c 'import srp' 2>/dev/null; then
    build/venv/bin/pip install -q --disable-pip-version-check srp==1.0.22
  fi
  # The OpenAPI checks (scripts/checks/openapi_check.sh: PyYAML, openapi-spec-validator, schemathesis) and the browser
  # test (scripts/checks/browser_check.sh: selenium, driving Debian's chromium), pinned.
  if ! build/venv/bin/python -c 'import yaml, openapi_spec_validator, schemathesis, selenium' 2>/dev/null; then
    build/venv/bin/pip install -q --disable-pip-version-check PyYAML==6.0.4 openapi-spec-validator==0.9.0 \
      schemathesis==4.32.5 selenium==4.51.0
  fi
  # The hosted login's acceptance check (scripts/checks/hosted_login.sh): authlib, an independent OpenID Connect
  # client (discovery, PKCE S256, ID-token validation from the JWKS), over requests. 1.6: later ones need a
  # cryptography >= 45, which soft-webauthn's fido2 1.2 refuses.
  if ! build/venv/bin/python -c 'import authlib, requests' 2>/dev/null; then
    build/venv/bin/pip install -q --disable-pip-version-check authlib==1.6.12 requests==2.34.2
  fi
}

# bench_sqlite_server PORT DATA_DIR LOG ADMIN_LISTEN: the release server ($binary) as the benchmarks measure it on
# SQLite: `synchronous=full`, warning-level logs, a rate limit above what the load generators send and no per-address
# connection limit (they are one address, as behind a proxy), its issuer on
# PORT; started in the background (its PID is then $!), its output appended to LOG. The configuration file is
# $bench_config when set (scripts/bench/ab.sh: each binary's own), else Config/passkeyd.json.
bench_sqlite_server() {
  local port=$1 data=$2 log=$3 admin=$4
  PASSKEYD_LOG_LEVEL=warning PASSKEYD_DATABASE_SYNCHRONOUS=full PASSKEYD_RATE_LIMIT_REQUESTS_PER_MINUTE=1000000 \
    PASSKEYD_HTTP_PER_ADDRESS_CONNECTION_LIMIT=0 PASSKEYD_ISSUER="http://127.0.0.1:$port/" PASSKEYD_ADMIN_LISTEN="$admin" \
    "$binary" serve --config "${bench_config:-Config/passkeyd.json}" --port "$port" --data-dir "$data" >>"$log" 2>&1 &
}
