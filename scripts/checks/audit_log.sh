#!/usr/bin/env bash
# The audit log end to end (docs/audit.md): a throwaway SoftHSM2 token holds the checkpoint key (PKCS#11, CKM_EDDSA);
# a server signs up and logs in users, refreshes and revokes; `passkeyd audit export` writes the log; an independent
# verifier (scripts/checks/audit_check, Go's sumdb/tlog and sumdb/note, no code shared with passkeyd) checks it and
# the server's proofs; `passkeyd audit verify` accepts it, and refuses it, naming the entry, after each tampering.
# The same token holds an AES key that wraps the key-encryption key of secrets at rest (`passkeyd encryption-key
# wrap`, encryption_at_rest.pkcs11), so the one server process uses the module for both.
# Usage: scripts/checks/audit_log.sh PASSKEYD   (needs softhsm2, opensc, golang-go, golang-golang-x-mod-dev, python3
# with `cryptography`: PYTHON names the interpreter, default build/venv/bin/python)
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/dev/lib.sh
passkeyd="$1"
python="${PYTHON:-build/venv/bin/python}"
work="$(mktemp -d)"
server=""
cleanup() {
  if [ -n "$server" ]; then kill -TERM "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
failures=0
check() {  # check NAME COMMAND...: runs it, reports
  if "${@:2}"; then echo "audit: ok   $1"; else echo "audit: FAIL $1"; failures=$((failures + 1)); fi
}

# The HSM: a throwaway SoftHSM2 token with an Ed25519 key pair (../shared/NOTES.md, "PKCS#11 and SoftHSM2").
module=/usr/lib/softhsm/libsofthsm2.so
export SOFTHSM2_CONF="$work/softhsm2.conf"
mkdir -p "$work/tokens"
printf 'directories.tokendir = %s/tokens\nobjectstore.backend = file\nlog.level = ERROR\n' "$work" >"$SOFTHSM2_CONF"
softhsm2-util --init-token --free --label passkeyd-audit-test --pin 1234 --so-pin 12345678 >/dev/null
pkcs11-tool --module "$module" --token-label passkeyd-audit-test --login --pin 1234 --keypairgen \
  --key-type EC:edwards25519 --id 01 --label audit-signing >/dev/null 2>&1
printf '1234\n' >"$work/pin"
chmod 600 "$work/pin"
export PASSKEYD_AUDIT_SIGNER=pkcs11 PASSKEYD_AUDIT_PKCS11_MODULE="$module" \
  PASSKEYD_AUDIT_PKCS11_TOKEN_LABEL=passkeyd-audit-test PASSKEYD_AUDIT_PKCS11_KEY_LABEL=audit-signing \
  PASSKEYD_AUDIT_PKCS11_PIN_FILE="$work/pin" PASSKEYD_AUDIT_CHECKPOINT_INTERVAL_MS=200 \
  PASSKEYD_AUDIT_ORIGIN=localhost/passkeyd-audit-test PASSKEYD_PASSKEYS_USER_VERIFICATION=preferred

port="$(free_port)"
admin="$(free_port)"
data="$work/data"

# The key-encryption key of secrets at rest, kept wrapped by an AES key on the same token
# (encryption_at_rest.pkcs11): one process then uses the module for the audit signer and the unwrapping.
pkcs11-tool --module "$module" --token-label passkeyd-audit-test --login --pin 1234 --keygen --key-type AES:32 \
  --sensitive --id 02 --label at-rest-wrapping >/dev/null 2>&1
head -c 32 /dev/urandom >"$work/at-rest.kek"
chmod 600 "$work/at-rest.kek"
export PASSKEYD_ENCRYPTION_AT_REST_KEY_FILE="$work/at-rest.kek" PASSKEYD_ENCRYPTION_AT_REST_PKCS11_MODULE="$module" \
  PASSKEYD_ENCRYPTION_AT_REST_PKCS11_TOKEN_LABEL=passkeyd-audit-test \
  PASSKEYD_ENCRYPTION_AT_REST_PKCS11_KEY_LABEL=at-rest-wrapping PASSKEYD_ENCRYPTION_AT_REST_PKCS11_PIN_FILE="$work/pin"
"$passkeyd" encryption-key wrap --config Config/passkeyd.json --data-dir "$data" >"$work/wrap.txt"
check "encryption-key wrap wraps the key file under the HSM's AES key" grep -q "^wrapped $work/at-rest.kek" "$work/wrap.txt"
check "the key file then holds the wrapped form, not the key" grep -q "^passkeyd-wrapped-key v1 " "$work/at-rest.kek"
fingerprint="$(sed -n 's/.*(key-encryption key \([0-9a-f]*\)).*/\1/p' "$work/wrap.txt")"
# Without the refresh retry window: the rotated token presented again at once must be reuse (refresh_reuse).
PASSKEYD_ISSUER="http://127.0.0.1:$port/" PASSKEYD_ADMIN_LISTEN="127.0.0.1:$admin" \
  PASSKEYD_TOKENS_REFRESH_TOKEN_REUSE_GRACE_SECONDS=0 "$passkeyd" serve \
  --config Config/passkeyd.json --port "$port" --data-dir "$data" 2>"$work/server.log" &
server=$!
wait_ready "$port"
grep -q "signed in the HSM" "$work/server.log" || { echo "audit: FAIL the server does not say the HSM signs"; exit 1; }
check "the server unwrapped the key-encryption key through the HSM at start and seals under it" grep -q \
  "\"key_encryption_key\":\"$fingerprint\",\"key_encryption_key_file\":\"wrapped by PKCS#11 key at-rest-wrapping\"" \
  "$work/server.log"
check "keys list, beside the server, shows every signing key sealed under that key" bash -c "
  '$passkeyd' keys list --json --config Config/passkeyd.json --data-dir '$data' >'$work/keys.json' &&
  python3 -c 'import json, sys; keys = json.load(open(sys.argv[1])); assert keys and all(k[\"encryption\"] == \"aes-256-gcm:\" + sys.argv[2] for k in keys), keys' '$work/keys.json' '$fingerprint'"

# Events: sign-ups and logins (loadgen), a refresh rotation, a reuse (family revoked), a revocation.
for _ in 1 2 3; do
  .build/debug/passkeyd-loadgen --url "http://127.0.0.1:$port" --once >"$work/tokens.json"
done
client="$(default_client_id)"
refresh="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["refresh_token"])' "$work/tokens.json")"
token() { curl -sS -o "$work/refreshed.json" -w '%{http_code}' "http://127.0.0.1:$port/oauth/token" \
  -d grant_type=refresh_token -d client_id="$client" -d refresh_token="$1"; }
[ "$(token "$refresh")" = 200 ] || { echo "audit: FAIL the refresh was refused"; exit 1; }
next="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["refresh_token"])' "$work/refreshed.json")"
code="$(token "$refresh")"; [ "$code" = 403 ] || { echo "audit: FAIL the reuse was not refused ($code: $(cat "$work/refreshed.json"))"; exit 1; }  # family revoked
curl -sS -o /dev/null "http://127.0.0.1:$port/oauth/revoke" -d client_id="$client" -d token="$next"
sleep 1  # sequenced (100 ms) and signed (200 ms)

check "admin endpoints serve the checkpoint and key; the public port does not" bash -c "
  curl -fsS http://127.0.0.1:$admin/audit/checkpoint | grep -q '^localhost/passkeyd-audit-test$' &&
  curl -fsS http://127.0.0.1:$admin/audit/key | grep -q '^localhost/passkeyd-audit-test+' &&
  [ \"\$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:$port/audit/checkpoint)\" = 404 ]"
"$passkeyd" audit export --config Config/passkeyd.json --data-dir "$data" --out "$work/export" >/dev/null
summary="$(python3 -c 'import json, sys
for line in open(sys.argv[1]):
    entry = json.loads(line)
    print(entry["event"], entry["outcome"], entry.get("reason", "-"), "request" if "request_id" in entry else "-")
' "$work/export/entries" | sort | uniq -c | sed 's/^ *//')"
echo "$summary" | sed 's/^/  /'
expected="3 login success - request
1 refresh success - request
1 refresh_reuse failure refresh_reused request
1 revocation success - request
3 signup success - request"
check "the export holds the sign-ups, logins, refresh, reuse and revocation, each with its request id" \
  test "$summary" = "$expected"
GOPATH=/usr/share/gocode GO111MODULE=off GOCACHE="$work/gocache" go build -o "$work/audit_check" \
  scripts/checks/audit_check/main.go
check "independent verifier (Go sumdb/tlog + sumdb/note) accepts the export and the server's proofs" \
  "$work/audit_check" "$work/export" "http://127.0.0.1:$admin"
cp "$work/export/checkpoint" "$work/kept-checkpoint"
key="$(cat "$work/export/key")"
check "passkeyd audit verify accepts the export" "$passkeyd" audit verify "$work/export" --key "$key"

# A few more events, then stop (the last events are sequenced and signed on the way out) and verify against the
# checkpoint kept earlier: consistency proof.
.build/debug/passkeyd-loadgen --url "http://127.0.0.1:$port" --once >/dev/null
kill -TERM "$server"; wait "$server" || true; server=""
"$passkeyd" audit export --config Config/passkeyd.json --data-dir "$data" --out "$work/later" >/dev/null
check "a later export is consistent with the kept checkpoint" \
  "$passkeyd" audit verify "$work/later" --key "$key" --previous "$work/kept-checkpoint"
check "the database refuses UPDATE and DELETE of the log and its node hashes" \
  "$python" scripts/checks/audit_tamper.py triggers "$data/passkeyd.sqlite"

# Tampering: each on a copy of the database, exported and verified with the kept key; must fail naming the entry.
tampered() {  # tampered NAME EXPECTED-TEXT TAMPER-ARGS...
  local copy="$work/tamper-$1"
  cp -r "$data" "$copy"
  "$python" scripts/checks/audit_tamper.py "${@:3:1}" "$copy/passkeyd.sqlite" "${@:4}"
  "$passkeyd" audit export --config Config/passkeyd.json --data-dir "$copy" --out "$copy/export" >/dev/null
  local output status=0
  output="$("$passkeyd" audit verify "$copy/export" --key "$key" --previous "$work/kept-checkpoint")" || status=$?
  echo "  $1: $output"
  [ "$status" -eq 1 ] && grep -q -- "$2" <<<"$output"
}
check "one byte changed in the database file" tampered byte "entry 2:" byte 2
check "an entry deleted" tampered delete "entry 4:" delete 4
check "two entries reordered" tampered reorder "entry 1:" reorder 1 5
check "the log truncated" tampered truncate "entry 3:" truncate 3
mkdir -p "$work/foreign" && cp "$work/later/"* "$work/foreign/"
"$python" scripts/checks/audit_tamper.py foreign "$work/foreign"
foreign_check() {
  local output status=0
  output="$("$passkeyd" audit verify "$work/foreign" --key "$key")" || status=$?
  echo "  foreign: $output"
  [ "$status" -eq 1 ] && grep -q "no signature by the key" <<<"$output"
}
check "a checkpoint signed by another key" foreign_check
[ "$failures" -eq 0 ] || { echo "server log:"; tail -20 "$work/server.log"; exit 1; }
