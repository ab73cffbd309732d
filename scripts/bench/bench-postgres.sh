#!/usr/bin/env bash
# End-to-end logins on PostgreSQL, for `make bench` (scripts/bench/bench.sh runs it after the SQLite logins and appends
# what it writes to docs/benchmarks.md). Runnable by itself once the release binaries are built:
#   scripts/bench/bench-postgres.sh [OUT.md] [SQLITE_RUNS.jsonl]
# (defaults build/bench/section-3-postgres.md and build/bench/login-runs.jsonl, the SQLite runs of bench.sh;
# BENCH_PG_SECONDS=N shortens the measured runs for a trial). A throwaway cluster (scripts/dev/throwaway-postgres.sh,
# synchronous_commit on, its default) is created and removed here. One node on it, then two nodes (two processes,
# own data directories, one database), 64 clients in a closed loop over the `poll` transport as in the SQLite rows;
# CPU of the passkeyd processes and of the cluster (postmaster and its children) read from /proc by the load
# generator at the measured window's edges (`--server-pid`, `--database-pid`), and around each whole run. Issue #35's
# PostgreSQL targets: logins/s at least 75% of the SQLite node's measured next to it, PostgreSQL's CPU per login at
# most 500 µs.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=build/bench
out="${1:-$work/section-3-postgres.md}"
sqlite_runs="${2:-$work/login-runs.jsonl}"
seconds="${BENCH_PG_SECONDS:-10}"
binary=.build/release/passkeyd
loadgen=.build/release/passkeyd-loadgen
mkdir -p "$work"
rm -f "$work"/pg-*.json "$work"/pg-runs.jsonl

# shellcheck source=scripts/dev/throwaway-postgres.sh
source scripts/dev/throwaway-postgres.sh
pg_data="$(mktemp -d "$PWD/$work/pg-data.XXXXXX")"
node1="" node2="" node3=""
cleanup() {
  for pid in $node1 $node2 $node3; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  stop_throwaway_postgres
  rm -rf "$pg_data"
}
trap cleanup EXIT

trap 'echo "bench-postgres: failed at line $LINENO: $BASH_COMMAND" >&2' ERR
start_throwaway_postgres >"$work/pg-cluster.log" 2>&1 || { cat "$work/pg-cluster.log" >&2; exit 1; }
postmaster="$(head -1 "$PG_THROWAWAY_DIR/data/postmaster.pid")"
database_url="$PASSKEYD_TEST_DATABASE_URL"
# The same cluster through its Unix socket, as a node on the database's own host would connect (libpq's keyword
# form: the host is the socket's directory).
pg_port="${database_url##*127.0.0.1:}"
pg_port="${pg_port%%/*}"
socket_url="host=$PG_THROWAWAY_DIR/sock port=$pg_port user=postgres dbname=postgres sslmode=disable"
pg_version="$("$PG_BIN/postgres" --version)"

# Both nodes share one configuration, as in a deployment (docs/deployment.md): the issuer names node 1. The
# same flags and variables as the SQLite server of bench.sh, with PASSKEYD_DATABASE_URL instead of synchronous=full;
# database.pool_size stays at its default (2 × cores per node). Access tokens are pinned to ES256, as in
# bench_write_config, so that its rows compare with the SQLite ones.
port1="$(free_port)"
port2="$(free_port)"
port3="$(free_port)"
start_node() { # start_node PORT DATA_DIR LOG [DATABASE_URL] (in the background: its PID is $!)
  PASSKEYD_LOG_LEVEL=warning PASSKEYD_RATE_LIMIT_REQUESTS_PER_MINUTE=1000000 PASSKEYD_DATABASE_URL="${4:-$database_url}" \
    PASSKEYD_HTTP_PER_ADDRESS_CONNECTION_LIMIT=0 PASSKEYD_ISSUER="http://127.0.0.1:$port1/" PASSKEYD_ADMIN_LISTEN= \
    PASSKEYD_TOKENS_ACCESS_TOKEN_SIGNING_ALG=ES256 "$binary" serve --config Config/passkeyd.json --port "$1" --data-dir "$2" >"$3" 2>&1 &
}

# CPU seconds (user + system) of the given passkeyd PIDs, and of the cluster: the postmaster (its own time and its
# exited children's) plus its live children (backends, checkpointer, WAL writer…). Children are found by parent
# PID: a backend's command line is its process title, which does not name the data directory.
cpu_now() { # cpu_now PID… → "server_seconds database_seconds"
  python3 - "$postmaster" "$@" <<'PY'
import os, sys
hz = os.sysconf("SC_CLK_TCK")
postmaster, nodes = sys.argv[1], set(sys.argv[2:])
server = database = 0
for pid in os.listdir("/proc"):
    if not pid.isdigit():
        continue
    try:
        text = open(f"/proc/{pid}/stat").read()
    except OSError:
        continue
    fields = text[text.rindex(")") + 2:].split()  # fields[0] is field 3 (state) of proc(5)
    ticks = int(fields[11]) + int(fields[12])  # utime, stime
    if pid in nodes:
        server += ticks
    elif pid == postmaster:
        database += ticks + int(fields[13]) + int(fields[14])  # + cutime, cstime (exited backends)
    elif fields[1] == postmaster:
        database += ticks
print(server / hz, database / hz)
PY
}

# measure NAME "PORT…" PID…: runs one load generator per port together (64 clients split evenly, the node on port i
# driven by generator i, which samples that node's process and, the first one only, the cluster's), and appends one
# line to pg-runs.jsonl.
measure() {
  local name=$1 ports=($2) generators
  shift 2
  generators=${#ports[@]}
  local pids=("$@") gens=() before after
  before="$(cpu_now "${pids[@]}")"
  for i in $(seq 0 $((generators - 1))); do
    local database=()
    [ "$i" = 0 ] && database=(--database-pid "$postmaster")
    "$loadgen" --url "http://127.0.0.1:${ports[$i]}" --login --credentials "$pg_data/credentials.jsonl" \
      --concurrency $((64 / generators)) --seconds "$seconds" --warmup 1 --transport poll \
      --server-pid "${pids[$i]}" "${database[@]}" >"$work/pg-$name-$i.json" 2>"$work/pg-$name-$i.err" &
    gens+=($!)
  done
  for gen in "${gens[@]}"; do wait "$gen" || true; done
  after="$(cpu_now "${pids[@]}")"
  python3 - "$name" "$generators" "$before" "$after" "$work" >>"$work/pg-runs.jsonl" <<'PY'
import json, sys
name, generators, before, after, work = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), sys.argv[4].split(), sys.argv[5]
runs = []
for i in range(generators):
    try:
        runs.append(json.loads(open(f"{work}/pg-{name}-{i}.json").read().strip().splitlines()[-1]))
    except (OSError, ValueError, IndexError):
        print(json.dumps({"name": name, "error": f"load generator {i + 1} gave no result"}))
        sys.exit(0)
print(json.dumps({
    "name": name, "nodes": generators, "seconds": runs[0]["seconds"],
    "concurrency": sum(r["concurrency"] for r in runs),
    "logins": sum(r["logins"] for r in runs), "failures": sum(r["failures"] for r in runs),
    "logins_per_second": sum(r["logins_per_second"] for r in runs),
    "p50_ms": max(r["p50_ms"] for r in runs), "p99_ms": max(r["p99_ms"] for r in runs),
    "max_ms": max(r["max_ms"] for r in runs), "p99_each_ms": [r["p99_ms"] for r in runs],
    "loadgen_cpu_seconds": sum(r["loadgen_cpu_seconds"] for r in runs),
    "server_cpu_seconds": round(float(after[0]) - float(before[0]), 2),
    "database_cpu_seconds": round(float(after[1]) - float(before[1]), 2),
    # Over the measured window alone (the load generators' /proc samples): every node's server CPU, the cluster's
    # (sampled by the first generator) and the logins that ended in the window.
    "completed_in_window": sum(r.get("completed_in_window", 0) for r in runs),
    **({"server_window_cpu_seconds": sum(r["server_window_cpu_seconds"] for r in runs)}
       if all("server_window_cpu_seconds" in r for r in runs) else {}),
    **({"database_window_cpu_seconds": runs[0]["database_window_cpu_seconds"]}
       if "database_window_cpu_seconds" in runs[0] else {}),
}))
PY
}

# sqlite_reference NAME: the same 64-client closed loop against a SQLite node (synchronous=full, its data directory
# on disk) run right next to the PostgreSQL one, so that the ratio compares runs made under the same conditions:
# this shared machine's speed drifts by ±20% within minutes (and RSA signing, a third of a login's CPU, by more
# between hosts), and the section above's runs were made minutes earlier.
sqlite_reference() {
  local name=$1 port data server before after
  port="$(free_port)"
  data="$pg_data/sqlite-$name"
  : >"$work/pg-$name.log"
  bench_sqlite_server "$port" "$data" "$work/pg-$name.log" ""
  server=$!
  wait_ready "$port" 30
  "$loadgen" --url "http://127.0.0.1:$port" --signup 200 --concurrency 16 --credentials "$data/credentials.jsonl" \
    >/dev/null
  before="$(cpu_now "$server")"
  "$loadgen" --url "http://127.0.0.1:$port" --login --credentials "$data/credentials.jsonl" --concurrency 64 \
    --seconds "$seconds" --warmup 1 --transport poll --server-pid "$server" >"$work/pg-$name-0.json" \
    2>"$work/pg-$name-0.err" || true
  after="$(cpu_now "$server")"
  kill -TERM "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  python3 - "$name" "$before" "$after" "$work" >>"$work/pg-runs.jsonl" <<'PY'
import json, sys
name, before, after, work = sys.argv[1], sys.argv[2].split(), sys.argv[3].split(), sys.argv[4]
try:
    run = json.loads(open(f"{work}/pg-{name}-0.json").read().strip().splitlines()[-1])
except (OSError, ValueError, IndexError):
    print(json.dumps({"name": name, "error": "load generator gave no result"}))
    sys.exit(0)
run.update(name=name, nodes=1, server_cpu_seconds=round(float(after[0]) - float(before[0]), 2))
print(json.dumps(run))
PY
}

loadavg_before="$(cut -d' ' -f1-3 /proc/loadavg)"
start_node "$port1" "$pg_data/node1" "$work/pg-node1.log"
node1=$!
wait_ready "$port1" 30
"$loadgen" --url "http://127.0.0.1:$port1" --signup 200 --concurrency 16 --credentials "$pg_data/credentials.jsonl" \
  >"$work/pg-signup.json"
# SQLite, PostgreSQL over TCP (and over the Unix socket in the last round), SQLite: each round's reference is the
# mean of the two SQLite runs around it. The socket node is its own process (own data directory) on the same
# database.
start_node "$port3" "$pg_data/node3" "$work/pg-node3.log" "$socket_url"
node3=$!
wait_ready "$port3" 30
# Three rounds, each a PostgreSQL run between two SQLite runs (shared by neighbouring rounds): the targets take the
# median of the rounds, as the SQLite section takes the median of its runs.
sqlite_reference sqlite-0
for round in 1 2 3; do
  measure "one-node-$round" "$port1" "$node1"
  [ "$round" = 3 ] && measure one-node-socket "$port3" "$node3"
  sqlite_reference "sqlite-$round"
done
kill -TERM "$node3" 2>/dev/null || true
wait "$node3" 2>/dev/null || true
node3=""
start_node "$port2" "$pg_data/node2" "$work/pg-node2.log"
node2=$!
wait_ready "$port2" 30
measure two-nodes "$port1 $port2" "$node1" "$node2"

python3 - "$work/pg-runs.jsonl" "$sqlite_runs" "$(nproc)" "$loadavg_before" "$pg_version" "$seconds" \
  >"$out.tmp" <<'PY'
import json, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    if line.strip():
        run = json.loads(line)
        runs[run["name"]] = run
try:
    sqlite_all = [json.loads(line) for line in open(sys.argv[2]) if line.strip()]
except OSError:
    sqlite_all = []
cores, loadavg, version, seconds = int(sys.argv[3]), sys.argv[4], sys.argv[5], float(sys.argv[6])
# The SQLite rows of the section above: the 64-client closed-loop `poll` runs with RS256 ID tokens (the default
# client, as here); the one with the median logins/s.
closed = sorted((r for r in sqlite_all if r.get("transport") == "poll" and r.get("concurrency") == 64
                 and not r.get("offered_per_second") and r.get("id_token_alg", "RS256") == "RS256"),
                key=lambda r: r["logins_per_second"])
section_sqlite = closed[(len(closed) - 1) // 2] if closed else None
# The references: the SQLite runs made around each round's PostgreSQL run (sqlite-0 … sqlite-3), averaged in pairs
# (rates and CPU per login) for each round, all of them for the reference row; the section above's median only when
# they failed.
def mean_of(around):
    merged = dict(around[0])
    for key in ("logins_per_second", "p50_ms", "p99_ms", "server_cpu_seconds", "loadgen_cpu_seconds", "logins",
                "completed_in_window", "server_window_cpu_seconds"):
        if not all(key in r for r in around):
            merged.pop(key, None)
            continue
        merged[key] = sum(r[key] for r in around) / len(around)
    merged["failures"] = sum(r["failures"] for r in around)
    return merged
def measured(name):
    return runs.get(name) if name in runs and "error" not in runs[name] else None
references = [measured(f"sqlite-{i}") for i in range(4)]
around = [r for r in references if r]
if around:
    sqlite = mean_of(around)
    rates = ", ".join(format(r["logins_per_second"], ",.0f") for r in around)
    sqlite_label = f"SQLite (`synchronous=full`), mean of the {len(around)} runs around the rounds ({rates}/s)"
else:
    sqlite = section_sqlite
    sqlite_label = "SQLite (`synchronous=full`), the section above's median"
def round_reference(i):
    pair = [r for r in references[i - 1:i + 1] if r]
    return mean_of(pair) if pair else sqlite
rounds = [(i, measured(f"one-node-{i}"), round_reference(i)) for i in (1, 2, 3)]
rounds = [(i, run, reference) for i, run, reference in rounds if run]

print("## End-to-end passkey logins on PostgreSQL")
print()
print(f"The same logins (64 clients, `poll`, closed loop, 1 s warm-up, {seconds:g} s measured) against passkeyd on "
      f"a throwaway PostgreSQL cluster on this machine ({version}; `initdb` defaults, `synchronous_commit` on), "
      "reached over loopback TCP, and for one node also over the cluster's Unix socket (a separate node process "
      "on the same database, measured right after the TCP one: how a node on the database's own host would "
      "connect), `database.pool_size` at its default (2 × cores per node), log level warning. Two nodes: two "
      "server processes on different ports with their own data directories and one database, each driven by its "
      "own load generator of 32 clients, started together; throughput is their sum, p50 and p99 the worse of the "
      "two generators' (their latencies are not merged). 200 users signed up once through node 1; the two-node run "
      "follows the one-node run on the same database. Server, database and load generator share the "
      f"{cores} cores. Load average just before: {loadavg}. The SQLite reference is measured here too, the same "
      "64-client closed loop against a SQLite node (`synchronous=full`, data on disk): three rounds, each a one-node "
      "PostgreSQL run over loopback TCP between two SQLite runs (neighbouring rounds share one), each round's share "
      "computed against the mean of its two: this shared machine's speed drifts within minutes, so the ratio "
      "compares runs made under the same conditions (the section above's median is shown for comparison). All "
      "these runs use the default client (RS256 ID tokens). Its server CPU includes SQLite, which runs in the "
      "process. Server and database CPU per login: user + system time over the measured window alone, read from "
      "/proc by the load generator when the window opens and when it closes (`--server-pid`, `--database-pid`), "
      "over the logins that ended in it; database CPU is the cluster's postmaster, its live children and those it "
      "has reaped. Load generator CPU per login: its own CPU over the whole run (warm-up included) over the logins "
      "of that time (the measured rate × (1 s + the measured seconds)). *CPU used* is the share of all cores the "
      "three took over the whole run. Targets (issue #35), on the median of the three one-node loopback TCP rounds: "
      "logins/s at least 75% of the SQLite reference's, and PostgreSQL CPU per login at most 500 µs.")
print()
print("| store | nodes | logins/s | p50 | p99 | failures | server CPU/login | database CPU/login "
      "| load generator CPU/login | CPU used | share of SQLite's logins/s | ≥ 75%: met | database CPU ≤ 500 µs: met |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|:---:|")
WINDOW = {"server_cpu_seconds": "server_window_cpu_seconds", "database_cpu_seconds": "database_window_cpu_seconds"}
def per_login(run, key):
    # Over the measured window when the load generator sampled it; otherwise (and for its own CPU) CPU read around
    # the whole run, warm-up included, over the logins of warm-up plus measured window, estimated at the measured
    # rate.
    window = WINDOW.get(key)
    if window in run and run.get("completed_in_window"):
        return run[window] / run["completed_in_window"] * 1e6
    return run[key] / max(1, run["logins"] * (run["seconds"] + 1) / run["seconds"]) * 1e6
def busy(run):
    used = run["server_cpu_seconds"] + run.get("database_cpu_seconds", 0) + run["loadgen_cpu_seconds"]
    return used / (run["seconds"] + 1) / cores * 100
if section_sqlite and sqlite is not section_sqlite:
    s = section_sqlite
    print(f"| SQLite, the section above's median | 1 | {s['logins_per_second']:,.0f} | {s['p50_ms']:.1f} ms "
          f"| {s['p99_ms']:.1f} ms | {s['failures']} | {per_login(s, 'server_cpu_seconds'):,.0f} µs "
          f"| (in the server) | {per_login(s, 'loadgen_cpu_seconds'):,.0f} µs | {busy(s):.0f}% | — | (comparison) | |")
if sqlite:
    print(f"| {sqlite_label} | 1 | {sqlite['logins_per_second']:,.0f} | {sqlite['p50_ms']:.1f} ms "
          f"| {sqlite['p99_ms']:.1f} ms | {sqlite['failures']} | {per_login(sqlite, 'server_cpu_seconds'):,.0f} µs "
          f"| (in the server) | {per_login(sqlite, 'loadgen_cpu_seconds'):,.0f} µs | {busy(sqlite):.0f}% | 100% "
          "| (reference) | |")
else:
    print("| SQLite | 1 | — | — | — | — | — | — | — | — | — | (not measured in this run) | |")
def row(store, run, share, rate_met="(comparison)", cpu_met=""):
    print(f"| {store} | {run['nodes']} | {run['logins_per_second']:,.0f} | {run['p50_ms']:.1f} ms "
          f"| {run['p99_ms']:.1f} ms | {run['failures']} | {per_login(run, 'server_cpu_seconds'):,.0f} µs "
          f"| {per_login(run, 'database_cpu_seconds'):,.0f} µs | {per_login(run, 'loadgen_cpu_seconds'):,.0f} µs "
          f"| {busy(run):.0f}% | {share} | {rate_met} | {cpu_met} |")
def share_of(run, reference):
    return (run["logins_per_second"] / reference["logins_per_second"]
            if reference and reference.get("logins_per_second") else None)
shares = []
for i, run, reference in rounds:
    share = share_of(run, reference)
    shares.append(share)
    row(f"PostgreSQL, loopback TCP, round {i}", run, f"{share:.0%}" if share is not None else "—", "(round)")
if rounds:
    middle = statistics.median
    database = middle([per_login(run, "database_cpu_seconds") for _, run, _ in rounds])
    known = [s for s in shares if s is not None]
    share = middle(known) if known else None
    failures = sum(run["failures"] for _, run, _ in rounds)
    rate_met = "— (no SQLite figure)" if share is None else ("yes" if share >= 0.75 and failures == 0 else "**no**")
    cpu_met = "yes" if database <= 500 else "**no**"
    print(f"| PostgreSQL, loopback TCP: median of the {len(rounds)} rounds | 1 "
          f"| {middle([run['logins_per_second'] for _, run, _ in rounds]):,.0f} "
          f"| {middle([run['p50_ms'] for _, run, _ in rounds]):.1f} ms "
          f"| {middle([run['p99_ms'] for _, run, _ in rounds]):.1f} ms | {failures} "
          f"| {middle([per_login(run, 'server_cpu_seconds') for _, run, _ in rounds]):,.0f} µs "
          f"| {database:,.0f} µs | {middle([per_login(run, 'loadgen_cpu_seconds') for _, run, _ in rounds]):,.0f} µs "
          f"| {middle([busy(run) for _, run, _ in rounds]):.0f}% "
          f"| {format(share, '.0%') if share is not None else '—'} | {rate_met} | {cpu_met} |")
else:
    print("| PostgreSQL, loopback TCP | 1 | — | — | — | — | — | — | — | — | — | not measured | |")
for name, store in (("one-node-socket", "PostgreSQL, Unix socket (after round 3)"),
                    ("two-nodes", "PostgreSQL, loopback TCP")):
    run = runs.get(name)
    if not run or "error" in run:
        reason = run["error"] if run else "not run"
        print(f"| {store} | — | — | — | — | — | — | — | — | — | — | not measured: {reason} | |")
        continue
    share = share_of(run, rounds[-1][2] if rounds else sqlite)
    row(store, run, f"{share:.0%}" if share is not None else "—")
print()
# The round whose PostgreSQL CPU per login is the median, for where the time goes and the socket's comparison.
by_database = sorted(rounds, key=lambda r: per_login(r[1], "database_cpu_seconds"))
one = by_database[(len(by_database) - 1) // 2][1] if by_database else None
one_round = by_database[(len(by_database) - 1) // 2][0] if by_database else None
one_reference = by_database[(len(by_database) - 1) // 2][2] if by_database else None
if one:
    server, database, client = (per_login(one, k) for k in ("server_cpu_seconds", "database_cpu_seconds",
                                                              "loadgen_cpu_seconds"))
    total = server + database + client
    text = (f"Where the time goes (one node on PostgreSQL, round {one_round}, the median PostgreSQL CPU): of the "
            f"{total:,.0f} µs of CPU a login costs on this "
            f"machine, the passkeyd server takes {server:,.0f} µs ({server / total:.0%}), PostgreSQL "
            f"{database:,.0f} µs ({database / total:.0%}) and the load generator {client:,.0f} µs "
            f"({client / total:.0%}); that CPU alone would allow {cores * 1e6 / total:,.0f} logins/s on "
            f"{cores} cores, and the run used {busy(one):.0f}% of them")
    if one_reference:
        sqlite_total = (per_login(one_reference, "server_cpu_seconds")
                        + per_login(one_reference, "loadgen_cpu_seconds"))
        sqlite_server = per_login(one_reference, "server_cpu_seconds")
        text += (f". On SQLite (the SQLite runs around that round) a login costs {sqlite_total:,.0f} µs in all, {sqlite_server:,.0f} µs of it the "
                 f"server with SQLite in it: on PostgreSQL the server alone spends {server:,.0f} µs "
                 f"({server - sqlite_server:+,.0f} µs, the client side of the protocol: libpq, loopback TCP, waking the pool's connections) "
                 f"and the database process {database:,.0f} µs on top, {total - sqlite_total:+,.0f} µs in all")
    if busy(one) >= 85:
        text += (". The cores were nearly saturated, so that CPU per login, not waiting for commits, is what "
                 "bounds the throughput here.")
    else:
        text += (". The cores were not saturated: the rest of the time is waiting, for commit flushes "
                 "(`synchronous_commit` on) and round trips over the pool's connections.")
    print(text)
    print()
socket = runs.get("one-node-socket")
one = rounds[-1][1] if rounds else None  # the socket node ran right after round 3's TCP run
if one and socket and "error" not in socket and one["logins_per_second"]:
    gain = socket["logins_per_second"] / one["logins_per_second"] - 1
    print(f"Over the Unix socket instead of loopback TCP, one node did {socket['logins_per_second']:,.0f} logins/s "
          f"({gain:+.0%}), with {per_login(socket, 'server_cpu_seconds'):,.0f} µs of server CPU per login (TCP: "
          f"{per_login(one, 'server_cpu_seconds'):,.0f} µs) and {per_login(socket, 'database_cpu_seconds'):,.0f} µs "
          f"of database CPU (TCP: {per_login(one, 'database_cpu_seconds'):,.0f} µs). One pair of consecutive runs on "
          "this shared host (round 3's TCP run and the socket run after it) does not separate a difference of a few "
          "percent from its drift; docs/deployment.md "
          "gives alternated pairs (the socket saves kernel work on every round trip, on both sides).")
    print()
two = runs.get("two-nodes")
if two and "error" not in two and len(two.get("p99_each_ms", [])) == 2:
    print(f"Two nodes: p99 per load generator {two['p99_each_ms'][0]:.1f} ms and {two['p99_each_ms'][1]:.1f} ms. On "
          "one machine the second node adds no cores, only a second process competing for the same two; the row "
          "shows what sharing the database costs, not how far several machines scale.")
    print()
PY
mv "$out.tmp" "$out"
echo "bench-postgres: wrote $out"
