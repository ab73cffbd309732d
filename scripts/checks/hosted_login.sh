#!/usr/bin/env bash
# The hosted login (issue 38, docs/hosted-login.md) end to end with independent software
# (scripts/checks/hosted_login.py): authlib (PyPI, an OpenID Connect client library) runs the authorization code flow
# with PKCE from the discovery document while headless Chromium (Debian's chromium + chromium-driver, selenium) with
# a virtual authenticator drives the hosted page. The daemon runs with a client that opts in (authorization_code, a
# loopback redirect URI and a post-logout URI on the catcher's port; the catcher's localhost origin, for
# response_mode=web_message, as a web origin with a redirect URI of its own) and a confidential client whose secret
# `passkeyd clients new-secret` makes, a default realm with a related origin and a
# second realm (`staff`, usernames) that `connection` names; the catcher
# is a python http.server on another loopback port, run by hosted_login.py.
# Usage: scripts/checks/hosted_login.sh [BINARY]   (default .build/debug/passkeyd; PYTHON names the venv's python)
# Writes build/hosted-login-page.png (the hosted page before the sign-in).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/dev/lib.sh
binary="${1:-.build/debug/passkeyd}"
python="${PYTHON:-build/venv/bin/python}"
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  echo "hosted_login: FAIL chromium and chromium-driver are not installed (scripts/dev/install-deps.sh test)" >&2
  exit 1
fi
mkdir -p build
work="$(mktemp -d)"
port="$(free_port)"
catcher_port="$(free_port)"
client_id="hosted-login-check"
redirect_uri="http://127.0.0.1:$catcher_port/callback"
post_logout_uri="http://127.0.0.1:$catcher_port/signed-out"
related_origin="https://login.example.net"
server=""
cleanup() {
  if [ -n "$server" ]; then
    kill -TERM "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
# The confidential client: a secret from the binary's own command, its hash in the configuration.
secret_lines="$("$binary" clients new-secret)"
server_secret="$(sed -n 's/^client_secret: //p' <<<"$secret_lines")"
server_secret_hash="$(sed -n 's/^client_secret_sha256: //p' <<<"$secret_lines")"
# The private_key_jwt client: an RSA key pair made by the checker's own library (authlib), its public JWK listed.
"$python" - "$work/machine-key.pem" >"$work/machine-jwk.json" <<'PY'
import json, sys
from authlib.jose import JsonWebKey
key = JsonWebKey.generate_key("RSA", 2048, is_private=True)
open(sys.argv[1], "w").write(key.as_pem(is_private=True).decode())
print(json.dumps(key.as_dict(is_private=False)))
PY
machine_jwk="$(cat "$work/machine-jwk.json")"
# The same key for a second client whose JWK says PS256 (RFC 7518 §3.5), as an Auth0 credential may.
machine_jwk_pss="$("$python" -c 'import json, sys; k = json.load(open(sys.argv[1])); k["alg"] = "PS256"; print(json.dumps(k))' "$work/machine-jwk.json")"
clients="[{\"client_id\": \"hosted-login-machine\", \"grant_types\": [\"client_credentials\"],
  \"jwks\": {\"keys\": [$machine_jwk]}},
  {\"client_id\": \"hosted-login-machine-pss\", \"grant_types\": [\"client_credentials\"],
  \"jwks\": {\"keys\": [$machine_jwk_pss]}},
  {\"client_id\": \"hosted-login-server\",
  \"grant_types\": [\"authorization_code\", \"refresh_token\", \"client_credentials\"],
  \"refresh_tokens\": \"offline_access\", \"redirect_uris\": [\"http://127.0.0.1:$catcher_port/server-callback\"],
  \"client_secret_sha256\": [\"$server_secret_hash\"]},
  {\"client_id\": \"$client_id\", \"name\": \"Hosted login check\",
  \"grant_types\": [\"authorization_code\", \"refresh_token\"], \"refresh_tokens\": \"offline_access\",
  \"redirect_uris\": [\"$redirect_uri\", \"http://localhost:$catcher_port/app-callback\"],
  \"web_origins\": [\"http://localhost:$catcher_port\"], \"post_logout_redirect_uris\": [\"$post_logout_uri\"]}]"
realms="[{\"name\": \"Username-Password-Authentication\", \"default\": true,
  \"identifiers\": {\"email\": \"required\"}, \"related_origins\": [\"$related_origin\"]},
  {\"name\": \"staff\", \"identifiers\": {\"username\": \"required\"}}]"
# An API the confidential client may get its own tokens for (client_credentials).
apis='[{"identifier": "https://jobs.example.test/", "scopes": [{"value": "jobs:run"}, {"value": "jobs:admin"}],
  "introspection_clients": ["hosted-login-server"]}]'
grants='[{"client_id": "hosted-login-server", "audience": "https://jobs.example.test/", "scopes": ["jobs:run"]},
  {"client_id": "hosted-login-machine", "audience": "https://jobs.example.test/", "scopes": ["jobs:run"]},
  {"client_id": "hosted-login-machine-pss", "audience": "https://jobs.example.test/", "scopes": ["jobs:run"]}]'
env PASSKEYD_ISSUER="http://localhost:$port/" PASSKEYD_ADMIN_LISTEN= PASSKEYD_CLIENTS="$clients" \
  PASSKEYD_APIS="$apis" PASSKEYD_CLIENT_GRANTS="$grants" \
  PASSKEYD_REALMS="$realms" PASSKEYD_RATE_LIMIT_REQUESTS_PER_MINUTE=0 \
  PASSKEYD_RATE_LIMIT_REQUESTS_PER_USER_PER_MINUTE=0 \
  "$binary" serve --config Config/passkeyd.json --port "$port" --data-dir "$work/data" 2>"$work/server.log" &
server=$!
if ! wait_ready "$port"; then
  echo "hosted_login: FAIL the daemon did not start; its log:" >&2
  tail -20 "$work/server.log" >&2
  exit 1
fi
status=0
HOSTED_LOGIN_SERVER_SECRET="$server_secret" HOSTED_LOGIN_MACHINE_KEY="$work/machine-key.pem" \
  "$python" scripts/checks/hosted_login.py "http://localhost:$port/" \
  "$client_id" "$catcher_port" \
  "$related_origin" "$PWD/build/hosted-login-page.png" || status=$?
if [ "$status" -ne 0 ]; then
  echo "server log (tail):"
  tail -20 "$work/server.log"
fi
exit "$status"
