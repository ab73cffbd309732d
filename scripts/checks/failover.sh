#!/usr/bin/env bash
# Failover check (issue 36): a throwaway pg_auto_failover formation on loopback (Debian's postgresql-15-auto-failover
# and pg-auto-failover-cli: a monitor, a primary and a synchronous standby, all under one temporary directory, run as
# the postgres user), two passkeyd nodes whose database.url is the multi-host URI `pg_autoctl show uri` prints, and a
# mixed load over both (scripts/checks/failover.py: sign-ups, logins, refresh rotations) through two faults:
#   round 1: the primary's PostgreSQL killed (`pg_ctl stop -m immediate`); its keeper reports it down and the monitor
#            promotes the standby; the old primary then rejoins as the new standby by itself (pg_rewind);
#   round 2: the new primary's keeper and PostgreSQL killed (SIGKILL): the monitor's health checks notice, and after
#            the demote timeout it promotes the standby.
# failover.py then checks that nothing acknowledged was lost, no 500 or 503 answered a write that committed, no
# request hung, both nodes recovered without a restart, and prints each round's write outage. About a minute.
# The monitor's timings are shortened (below) so that round 2 takes seconds, not the defaults' minute.
# Usage: scripts/checks/failover.sh [path/to/passkeyd]
# With FAILOVER_LOGS=DIR, the nodes' and the formation's logs are copied into DIR at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
binary="${1:-.build/debug/passkeyd}"
source scripts/dev/throwaway-postgres.sh  # pg_as_owner, free_port, wait_ready
# The PostgreSQL major version the pg_auto_failover extension is built for (postgresql-15-auto-failover).
extension="$(ls /usr/lib/postgresql/*/lib/pgautofailover.so 2>/dev/null | sort -V | tail -1)"
if [ -z "$extension" ] || ! command -v pg_autoctl >/dev/null; then
  echo "failover: FAIL pg_auto_failover is not installed (scripts/dev/install-deps.sh test)" >&2
  exit 1
fi
pg_bin="$(dirname "$(dirname "$extension")")/bin"
formation=""  # the formation's directory: data directories, pg_autoctl's files, sockets, logs
work=""       # the nodes' data directories and logs, the markers shared with failover.py
servers=()
keepers=()    # the `pg_autoctl run` processes (as started: runuser's, when root)
load=""
status=0
reached=""   # await's result
verdict=0    # 1 once failover.py has judged the run

# pg_autoctl (or pg_ctl, psql) as the postgres user, with every file it keeps under $formation: its configuration
# and state (XDG directories), its PID files, and the servers' Unix sockets (PGHOST).
pgaf() {
  (cd / && pg_as_owner env XDG_CONFIG_HOME="$formation/config" XDG_DATA_HOME="$formation/share" \
    XDG_RUNTIME_DIR="$formation/run" PGHOST="$formation/sock" PATH="$pg_bin:/usr/bin:/bin" "$@")
}

# The PID of the `pg_autoctl run` of the node in $formation/$1 (its process group: its services and PostgreSQL).
keeper_pid() {
  head -1 "$formation/run/pg_autoctl$formation/$1/pg_autoctl.pid"
}

cleanup() {
  local code=$?
  if [ -n "${FAILOVER_LOGS:-}" ]; then
    mkdir -p "$FAILOVER_LOGS"
    cp "$work"/*.log "$formation"/*.log "$FAILOVER_LOGS" 2>/dev/null || true
  fi
  if [ -n "$load" ]; then kill -TERM "$load" 2>/dev/null || true; wait "$load" 2>/dev/null || true; fi
  for pid in "${servers[@]+"${servers[@]}"}"; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  if [ -n "$formation" ] && [ -d "$formation" ]; then
    # When the formation misbehaved (not the nodes: failover.py says what they did), what it did and logged.
    if [ "$code" -ne 0 ] && [ "$verdict" -eq 0 ]; then
      echo "the monitor's events:"
      pgaf pg_autoctl show events --pgdata "$formation/monitor" --count 30 2>/dev/null || true
      for log in "$formation"/*.log; do echo "$(basename "$log") (last lines):"; tail -8 "$log"; done
    fi
    # Each keeper stops its PostgreSQL on SIGTERM; one still running after 15 s is killed with its process group.
    local groups=() pid
    for node in node1 node2 monitor; do
      if [ -f "$formation/run/pg_autoctl$formation/$node/pg_autoctl.pid" ]; then groups+=("$(keeper_pid "$node")"); fi
    done
    for pid in "${groups[@]+"${groups[@]}"}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done
    for _ in $(seq 1 150); do
      local alive=0
      for pid in "${groups[@]+"${groups[@]}"}"; do if kill -0 "$pid" 2>/dev/null; then alive=1; fi; done
      if [ "$alive" -eq 0 ]; then break; fi
      sleep 0.1
    done
    for pid in "${groups[@]+"${groups[@]}"}"; do
      if kill -0 "$pid" 2>/dev/null; then kill -KILL -- "-$pid" 2>/dev/null || true; fi
    done
    for pid in "${keepers[@]+"${keepers[@]}"}"; do wait "$pid" 2>/dev/null || true; done
    for node in node1 node2 monitor; do
      if [ -f "$formation/$node/postmaster.pid" ]; then
        pgaf pg_ctl -D "$formation/$node" -m immediate -w stop >/dev/null 2>&1 || true
      fi
    done
    rm -rf "$formation"
  fi
  if [ -n "$work" ]; then rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# fail MESSAGE: the run fails here.
fail() {
  echo "failover: FAIL $*"
  status=1
  exit 1
}

# Starts `pg_autoctl run` for the node in $formation/$1, in the background, its output in $formation/$1.log.
# (`|| true`: the shell's "Killed" for round 2's keeper then goes to that log, not to this script's output.)
run_keeper() {
  (pgaf setsid pg_autoctl run --pgdata "$formation/$1" || true) >"$formation/$1.log" 2>&1 &
  keepers+=($!)
}

# The formation's nodes as "name reported assigned" lines (`pg_autoctl show state`), nothing while the monitor is down.
states() {
  pgaf pg_autoctl show state --pgdata "$formation/monitor" --json 2>/dev/null | python3 -c 'import json, sys
for node in json.load(sys.stdin):
    print(node["nodename"], node["current_group_state"], node["assigned_group_state"])' 2>/dev/null || true
}

# await SECONDS "name:state" …: polls until each named node reports and is assigned its state (a `|`-separated
# list of states); sets `reached` to the time then (seconds since the epoch); fails after SECONDS.
await() {
  local deadline=$(($(date +%s) + $1)) now
  shift
  while true; do
    now="$(states)"
    local matched=1
    for want in "$@"; do
      if ! grep -Eq "^${want%%:*} (${want#*:}) (${want#*:})\$" <<<"$now"; then matched=0; fi
    done
    if [ "$matched" -eq 1 ]; then reached="$(date +%s.%N)"; return 0; fi
    if [ "$(date +%s)" -ge "$deadline" ]; then fail "the formation did not reach $* (now: $(tr '\n' ';' <<<"$now"))"; fi
    sleep 0.1
  done
}

# children_of PID: the PIDs of PID's child processes, from /proc (field 4 of stat, after the parenthesised name).
children_of() {
  local stat line fields
  for stat in /proc/[0-9]*/stat; do
    { read -r line <"$stat"; } 2>/dev/null || continue
    read -r -a fields <<<"${line##*) }"
    if [ "${fields[1]:-}" = "$1" ]; then
      line="${stat#/proc/}"
      echo "${line%/stat}"
    fi
  done
}

# sync_standby PORT: the primary on PORT names its standby in synchronous_standby_names (`ANY 1 (…)`), so that a
# COMMIT waits for the standby's flush.
sync_standby() {
  local names
  names="$(pgaf psql -p "$1" -d passkeyd -Atc 'SHOW synchronous_standby_names')"
  case "$names" in
    "ANY 1 ("*")") echo "failover: ok   the primary's synchronous_standby_names is $names" ;;
    *) fail "the primary's synchronous_standby_names is '$names', not ANY 1 (…)" ;;
  esac
}

# --- The formation: a monitor, a primary, a standby.
formation="$(mktemp -d -t passkeyd-failover.XXXXXX)"
mkdir -p "$formation/sock" "$formation/run"
if [ "$(id -u)" -eq 0 ]; then chown -R postgres:postgres "$formation"; fi
chmod 700 "$formation"
monitor_port="$(free_port)"
ports=("$(free_port)" "$(free_port)")
# The monitor and the primary start from clusters made here, so that their sockets are in $formation/sock (pg_autoctl
# would leave unix_socket_directories at the default); the standby copies the primary's settings.
for node in monitor node1; do
  pgaf initdb -D "$formation/$node" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-instructions >/dev/null
  printf "unix_socket_directories = '%s'\nlisten_addresses = '127.0.0.1'\n" "$formation/sock" |
    pgaf tee -a "$formation/$node/postgresql.conf" >/dev/null
done
pgaf pg_autoctl create monitor --pgdata "$formation/monitor" --pgport "$monitor_port" --hostname 127.0.0.1 \
  --auth trust --no-ssl >"$formation/create-monitor.log" 2>&1 ||
  fail "pg_autoctl create monitor: $(tail -3 "$formation/create-monitor.log")"
pgaf pg_autoctl config set --pgdata "$formation/monitor" postgresql.listen_addresses 127.0.0.1 >/dev/null
# The monitor's failure detection, shortened from its defaults (a health check every 20 s, a node unhealthy after
# 20 s without a report, 30 s for the old primary to demote itself) so that round 2 takes seconds. The keepers'
# network_partition_timeout (below) stays shorter than primary_demote_timeout, as with the defaults (20 s < 30 s):
# a primary cut off from the monitor and its standby stops before its standby is promoted.
cat <<'EOF' | pgaf tee -a "$formation/monitor/postgresql.conf" >/dev/null
pgautofailover.health_check_period = 1000
pgautofailover.health_check_timeout = 1000
pgautofailover.health_check_max_retries = 1
pgautofailover.health_check_retry_delay = 500
pgautofailover.node_considered_unhealthy_timeout = 3000
pgautofailover.primary_demote_timeout = 3000
EOF
run_keeper monitor
monitor_uri="$(pgaf pg_autoctl show uri --pgdata "$formation/monitor" --formation monitor)"
for name in node1 node2; do
  port="${ports[$(( ${name#node} - 1 ))]}"
  if [ "$name" = node2 ]; then
    # The primary's CHECKPOINT now keeps the standby's base backup from waiting for the next one (minutes).
    pgaf psql -p "${ports[0]}" -d passkeyd -qc CHECKPOINT
  fi
  pgaf pg_autoctl create postgres --pgdata "$formation/$name" --pgport "$port" --listen 127.0.0.1 \
    --hostname 127.0.0.1 --name "$name" --dbname passkeyd --monitor "$monitor_uri" --auth trust --no-ssl \
    >"$formation/create-$name.log" 2>&1 ||
    fail "pg_autoctl create postgres ($name): $(tail -3 "$formation/create-$name.log")"
  pgaf pg_autoctl config set --pgdata "$formation/$name" timeout.network_partition_timeout 2 >/dev/null
  run_keeper "$name"
  if [ "$name" = node1 ]; then
    await 30 "node1:single"
    for _ in $(seq 1 100); do pgaf pg_isready -q -p "$port" && break; sleep 0.1; done
  fi
done
await 60 "node1:primary" "node2:secondary"
sync_standby "${ports[0]}"
uri="$(pgaf pg_autoctl show uri --pgdata "$formation/monitor" --formation default)"
echo "failover: formation ready: $uri"

# --- Two passkeyd nodes on it: the URI as printed, with a role (the superuser, on this throwaway formation) and a
# short connect_timeout.
work="$(mktemp -d)"
url="${uri/postgres:\/\//postgres://postgres@}&connect_timeout=2"
openssl rand -out "$work/at-rest.kek" 32
chmod 600 "$work/at-rest.kek"
export PASSKEYD_DATABASE_URL="$url" PASSKEYD_RATE_LIMIT_REQUESTS_PER_MINUTE=0 \
  PASSKEYD_PASSKEYS_USER_VERIFICATION=preferred PASSKEYD_ENCRYPTION_AT_REST_KEY_FILE="$work/at-rest.kek"
node_ports=("$(free_port)" "$(free_port)")
admin_ports=("$(free_port)" "$(free_port)")  # /metrics: how the COMMITs in doubt were resolved
export PASSKEYD_ISSUER="http://127.0.0.1:${node_ports[0]}/"
for node in 1 2; do
  PASSKEYD_ADMIN_LISTEN="127.0.0.1:${admin_ports[$((node - 1))]}" "$binary" serve --config Config/passkeyd.json \
    --port "${node_ports[$((node - 1))]}" --data-dir "$work/data$node" 2>"$work/passkeyd$node.log" &
  servers+=($!)
  wait_ready "${node_ports[$((node - 1))]}" 30 || fail "passkeyd node $node did not become ready"
done
echo "failover: passkeyd nodes on 127.0.0.1:${node_ports[0]} and :${node_ports[1]}, database.url $url"

# --- The load, then the two rounds.
python_tools
deadline="$(python3 -c 'import json; print(json.load(open("Config/passkeyd.json"))["http"]["request_deadline_seconds"])')"
build/venv/bin/python scripts/checks/failover.py "http://127.0.0.1:${node_ports[0]}" \
  "http://127.0.0.1:${node_ports[1]}" --client-id "$(default_client_id)" --markers "$work" \
  --timeout "$((deadline + 2))" --logs "$work/passkeyd1.log" "$work/passkeyd2.log" &
load=$!
for _ in $(seq 1 600); do
  if [ -f "$work/loaded" ] || ! kill -0 "$load" 2>/dev/null; then break; fi
  sleep 0.1
done
[ -f "$work/loaded" ] || fail "the load did not start"
sleep 3  # load before the first fault

# Round 1: node1's PostgreSQL killed as in a crash; its keeper lives.
date +%s.%N >"$work/round1.killed"
pgaf pg_ctl -D "$formation/node1" -m immediate -w stop >/dev/null
await 30 "node2:wait_primary|primary"
echo "$reached" >"$work/round1.promoted"
echo "failover: round 1: node1's PostgreSQL killed (pg_ctl stop -m immediate); node2 promoted"
await 60 "node2:primary" "node1:secondary"
echo "failover: round 1: node1 rejoined as the standby"
sync_standby "${ports[1]}"
for port in "${node_ports[@]}"; do wait_ready "$port" 30 || true; done  # failover.py judges the recovery
sleep 3  # load with the standby back

# Round 2: node2's keeper and PostgreSQL killed (SIGKILL), every PostgreSQL process of it.
postmaster="$(head -1 "$formation/node2/postmaster.pid")"
children="$(children_of "$postmaster")"
keeper="$(keeper_pid node2)"
date +%s.%N >"$work/round2.killed"
# shellcheck disable=SC2086  # one PID per word
kill -KILL -- "-$keeper" "$postmaster" $children 2>/dev/null || true
rm -f "$formation/run/pg_autoctl$formation/node2/pg_autoctl.pid"  # so that the cleanup does not signal a reused PID
await 60 "node1:wait_primary|primary"
echo "$reached" >"$work/round2.promoted"
echo "failover: round 2: node2's keeper and PostgreSQL killed (SIGKILL); node1 promoted"
for port in "${node_ports[@]}"; do wait_ready "$port" 30 || true; done
sleep 3  # load after the recovery
date +%s.%N >"$work/stop"
wait "$load" || status=$?
load=""
verdict=1
for node in 1 2; do
  doubts="$(curl -fsS "http://127.0.0.1:${admin_ports[$((node - 1))]}/metrics" 2>/dev/null |
    awk '/^passkeyd_postgres_commits_in_doubt_total/ {sub(/^passkeyd_postgres_commits_in_doubt_total/, ""); printf "%s ", $0}')"
  echo "failover: node $node's COMMITs in doubt (/metrics): ${doubts:-none}"
done
exit "$status"
