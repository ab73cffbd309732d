#!/usr/bin/env bash
# Checks of what an operator installs: `passkeyd check-config` (exit 0 on a good configuration; exit 2 and, on
# a bad one, the very line `passkeyd serve` prints), and packaging/passkeyd.service through `systemd-analyze verify`
# (skipped, with a message, where systemd-analyze is missing or cannot run).
# Usage: scripts/checks/packaging_check.sh BINARY
set -uo pipefail
cd "$(dirname "$0")/../.."
binary="$(realpath "$1")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
ok() { echo "packaging: ok   $1"; }
fail() { echo "packaging: FAIL $1"; failures=$((failures + 1)); }

# check-config on the default file: exit 0, one line on stdout, and nothing created (no data directory, no database).
out="$(cd "$work" && "$binary" check-config --config "$OLDPWD/Config/passkeyd.json" 2>&1)"
status=$?
if [ "$status" -eq 0 ] && [ ! -e "$work/data" ] && [ -z "$(ls -A "$work")" ]; then
  ok "check-config accepts Config/passkeyd.json and creates nothing ($out)"
else
  fail "check-config on Config/passkeyd.json: exit $status, $out; created: $(ls -A "$work")"
fi

# Bad configurations: exit 2 with one line, the same line `serve` prints (and serve does not start).
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
good = json.load(open("Config/passkeyd.json"))
open(f"{work}/bad-json.json", "w").write('{"listen": {"port": 8080,}}')
unknown = dict(good, recording={"directory": "/tmp/x", "compress": True})
json.dump(unknown, open(f"{work}/unknown-key.json", "w"))
bad = json.loads(json.dumps(good)); bad["listen"]["port"] = 70000
json.dump(bad, open(f"{work}/bad-value.json", "w"))
PY
for case in bad-json unknown-key bad-value; do
  checked="$("$binary" check-config --config "$work/$case.json" 2>&1)"
  checked_status=$?
  served="$(timeout 20 "$binary" serve --config "$work/$case.json" --data-dir "$work/data-$case" 2>&1)"
  served_status=$?
  if [ "$checked_status" -eq 2 ] && [ "$served_status" -eq 2 ] && [ "$checked" = "$served" ] \
    && [ "$(printf '%s\n' "$checked" | wc -l)" -eq 1 ] && [ ! -e "$work/data-$case" ]; then
    ok "check-config refuses $case with exit 2 and serve's line: $checked"
  else
    fail "check-config $case: exit $checked_status \"$checked\"; serve: exit $served_status \"$served\""
  fi
done
missing="$("$binary" check-config --config "$work/none.json" 2>&1)"
[ $? -eq 2 ] && ok "check-config on a missing file: exit 2 ($missing)" || fail "check-config on a missing file: $missing"

# The systemd unit. systemd-analyze checks that ExecStart's program exists and is executable, so the unit is
# verified with the binary just built in place of /usr/local/bin/passkeyd; any message it prints is a failure
# (it only warns, with exit 0, about an unknown or misspelt directive).
if ! command -v systemd-analyze >/dev/null 2>&1; then
  echo "packaging: SKIP systemd-analyze verify: systemd-analyze is not installed (Debian package systemd)"
else
  sed "s#/usr/local/bin/passkeyd#$binary#g" packaging/passkeyd.service >"$work/passkeyd.service"
  if report="$(systemd-analyze verify "$work/passkeyd.service" 2>&1)" && [ -z "$report" ]; then
    ok "systemd-analyze verify packaging/passkeyd.service"
  elif printf '%s' "$report" | grep -qiE 'System has not been booted with systemd|Failed to (connect|initialize)'; then
    echo "packaging: SKIP systemd-analyze verify cannot run here: $report"
  else
    fail "systemd-analyze verify packaging/passkeyd.service: $report"
  fi
fi
echo "packaging: $failures failed"
[ "$failures" -eq 0 ]
