#!/usr/bin/env bash
# Installs the Debian packages passkeyd builds, tests or benchmarks with, when they are missing.
# Usage: scripts/dev/install-deps.sh [build|check|test|bench]   (check and bench include build, test includes check)
# Runs `apt-get update` at most once, and only when something is missing. Needs root (or sudo).
set -euo pipefail
level="${1:-build}"
packages=(pkg-config libssl-dev libcbor-dev libsqlite3-dev libmicrohttpd-dev libpq-dev libp11-kit-dev)
# What the Swift suites need (`make check`, and `make test` before its other checks): openssl, the command that builds
# the tests' certificate chains; postgresql, the server binaries (initdb, pg_ctl) for the throwaway cluster of the
# PostgreSQL tests (python3 finds it a free port); softhsm2, opensc (pkcs11-tool): the throwaway HSM token of the
# PKCS#11 tests and of the audit log.
check_packages=(python3 openssl postgresql softhsm2 opensc)
case "$level" in
  build) ;;
  check) packages+=("${check_packages[@]}") ;;
  # python3-venv, curl, bc: the checks with independent tools; golang-go, golang-golang-x-mod-dev: the audit log's
  # independent verifier (scripts/checks/audit_check).
  # systemd: systemd-analyze, which verifies packaging/passkeyd.service (no running systemd needed).
  # chromium, chromium-driver: the real-browser test of the demo web app (scripts/checks/browser_check.sh), test path
  # only.
  # postgresql-15-auto-failover, pg-auto-failover-cli: the pg_auto_failover formation of the failover test
  # (scripts/checks/failover.sh: the monitor's extension and pg_autoctl).
  test) packages+=("${check_packages[@]}" python3-venv curl bc golang-go golang-golang-x-mod-dev systemd chromium
    chromium-driver postgresql-15-auto-failover pg-auto-failover-cli) ;;
  bench) packages+=(python3 python3-venv openssl curl bc wrk sqlite3 postgresql) ;;
  *) echo "usage: $0 [build|check|test|bench]" >&2; exit 2 ;;
esac
missing=()
for package in "${packages[@]}"; do
  # A package counts as present when dpkg says it is installed ("ii").
  if ! dpkg-query -W -f='${db:Status-Abbrev}' "$package" 2>/dev/null | grep -q '^ii'; then
    missing+=("$package")
  fi
done
# python3 may come from elsewhere (pyenv); then the Debian packages are not needed. `ensurepip` is what Debian
# splits into python3-venv: without it `python3 -m venv` fails.
if command -v python3 >/dev/null 2>&1 && python3 -c 'import venv, ensurepip' 2>/dev/null; then
  filtered=()
  for package in "${missing[@]}"; do
    case "$package" in python3|python3-venv) ;; *) filtered+=("$package") ;; esac
  done
  missing=("${filtered[@]+"${filtered[@]}"}")
fi
if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}" >/dev/null
