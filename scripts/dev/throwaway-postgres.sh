#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests (Debian's postgresql package; recipe in ../shared/NOTES.md).
# Source it, then:
#   start_throwaway_postgres   sets PG_THROWAWAY_DIR and exports PASSKEYD_TEST_DATABASE_URL (loopback, free port)
#   stop_throwaway_postgres    stops the server and removes its directory (safe to call twice, or before start)
#   pause_throwaway_postgres / resume_throwaway_postgres   stop it keeping the data / start it again (fault tests)
#   restart_throwaway_postgres [immediate|fast]   both at once, from any shell that sets PG_THROWAWAY_DIR
# initdb and postgres refuse to run as root: as root they run as the `postgres` user the package creates.
# Standalone: `scripts/dev/throwaway-postgres.sh` starts one, prints the URL and waits; Ctrl-C stops and removes it.

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PG_BIN="${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}"

pg_as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start_throwaway_postgres() {
  if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/initdb" ]; then
    echo "throwaway-postgres: no PostgreSQL server binaries (install the postgresql package)" >&2
    return 1
  fi
  PG_THROWAWAY_DIR="$(mktemp -d -t passkeyd-pg.XXXXXX)"
  mkdir -p "$PG_THROWAWAY_DIR/sock"
  if [ "$(id -u)" -eq 0 ]; then chown -R postgres:postgres "$PG_THROWAWAY_DIR"; fi
  chmod 700 "$PG_THROWAWAY_DIR"
  local port attempt
  (cd / && pg_as_owner "$PG_BIN/initdb" -D "$PG_THROWAWAY_DIR/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 \
    --no-instructions >"$PG_THROWAWAY_DIR/initdb.log" 2>&1) || {
    echo "throwaway-postgres: initdb failed:" >&2; cat "$PG_THROWAWAY_DIR/initdb.log" >&2; return 1; }
  # The free port is only free when it is picked: another cluster or server started at the same moment (the test
  # suite starts several) may bind it first. Then the server cannot listen; another port is tried, up to 5 in all.
  for attempt in 1 2 3 4 5; do
    port="$(free_port)"
    # PG_THROWAWAY_EXTRA_OPTIONS: more server options, e.g. "-c synchronous_commit=off" to see what it costs.
    PG_THROWAWAY_OPTIONS="-p $port -k $PG_THROWAWAY_DIR/sock -c listen_addresses=127.0.0.1 -c max_connections=300"
    PG_THROWAWAY_OPTIONS+=" ${PG_THROWAWAY_EXTRA_OPTIONS:-}"
    if resume_throwaway_postgres 2>"$PG_THROWAWAY_DIR/start.err"; then
      export PASSKEYD_TEST_DATABASE_URL="postgresql://postgres@127.0.0.1:$port/postgres?sslmode=disable"
      return 0
    fi
    grep -qiE 'could not bind|address already in use|could not create any TCP/IP sockets' \
      "$PG_THROWAWAY_DIR/start.err" "$PG_THROWAWAY_DIR/server.log" 2>/dev/null || break
    echo "throwaway-postgres: port $port was taken (attempt $attempt), trying another" >&2
    : >"$PG_THROWAWAY_DIR/server.log"
  done
  cat "$PG_THROWAWAY_DIR/start.err" >&2
  return 1
}

# Starts the cluster's server (again, after pause_throwaway_postgres: same port and data).
resume_throwaway_postgres() {
  (cd / && pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_THROWAWAY_DIR/data" -l "$PG_THROWAWAY_DIR/server.log" -w -t 60 \
    -o "$PG_THROWAWAY_OPTIONS" start >/dev/null) || {
    echo "throwaway-postgres: the server did not start:" >&2; tail -20 "$PG_THROWAWAY_DIR/server.log" >&2; return 1; }
}

# Stops the cluster's server, keeping its data: `fast` (sessions terminated, a clean shutdown) by default, or
# `immediate` ($1: every process killed at once, as in a crash; the next start runs crash recovery).
pause_throwaway_postgres() {
  (cd / && pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_THROWAWAY_DIR/data" -m "${1:-fast}" -w stop >/dev/null)
}

# Stops the cluster's server and starts it again, keeping its data and options: `immediate` by default ($1: every
# process killed at once, as in a crash; the start runs crash recovery) or `fast`. Needs only PG_THROWAWAY_DIR
# (the options are the server's own, postmaster.opts), so a test that started the cluster in another shell can call it.
restart_throwaway_postgres() {
  (cd / && pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_THROWAWAY_DIR/data" -l "$PG_THROWAWAY_DIR/server.log" \
    -m "${1:-immediate}" -w -t 60 restart >/dev/null) || {
    echo "throwaway-postgres: the server did not restart:" >&2; tail -20 "$PG_THROWAWAY_DIR/server.log" >&2; return 1; }
}

stop_throwaway_postgres() {
  if [ -n "${PG_THROWAWAY_DIR:-}" ] && [ -d "$PG_THROWAWAY_DIR" ]; then
    (cd / && pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_THROWAWAY_DIR/data" -m immediate -w stop >/dev/null 2>&1) || true
    rm -rf "$PG_THROWAWAY_DIR"
  fi
  PG_THROWAWAY_DIR=""
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  sleeper=""
  trap 'stop_throwaway_postgres; if [ -n "$sleeper" ]; then kill "$sleeper" 2>/dev/null || true; fi' EXIT
  trap 'exit 130' INT TERM
  start_throwaway_postgres
  echo "PASSKEYD_TEST_DATABASE_URL=$PASSKEYD_TEST_DATABASE_URL"
  while true; do sleep 3600 & sleeper=$!; wait "$sleeper"; done  # `wait`, so that a signal ends it at once
fi
