#!/usr/bin/env bash
# Benchmarks passkeyd in release mode and writes the results to docs/benchmarks.md.
# Sections: HTTP (wrk on GET /healthz); WebAuthn verification (`passkeyd replay --bench` against py_webauthn and
# python-fido2 on the same generated workload, one core each); end-to-end passkey logins (passkeyd-loadgen against
# the release server with durable SQLite); the same logins on PostgreSQL, one node and two
# (scripts/bench/bench-postgres.sh, on a throwaway cluster it creates and removes). Each section is measured on this
# machine, now; figures from shared machines drift by about ±20% between runs, so ratios measured in one run are what
# count.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/dev/lib.sh
source scripts/bench/lib/common.sh
export PATH="$PATH:/opt/swift/usr/bin"
out=docs/benchmarks.md
work=build/bench
mkdir -p "$work" docs
rm -f "$work"/section-1-replay.md "$work"/section-2-login.md "$work"/section-3-postgres.md

swift build -c release --product passkeyd -Xswiftc -warnings-as-errors
swift build -c release --product passkeyd-loadgen -Xswiftc -warnings-as-errors
binary=.build/release/passkeyd
loadgen=.build/release/passkeyd-loadgen

machine="$(bench_machine_line)"
now="$(date -u +%Y-%m-%dT%H:%M:%SZ)"

# --- HTTP: GET /healthz with wrk, 10 s, 64 connections -------------------------------------------------
port=$((20000 + RANDOM % 20000))
rm -rf "$work/data"
PASSKEYD_LOG_LEVEL=warning PASSKEYD_ADMIN_LISTEN= "$binary" serve --config Config/passkeyd.json --port "$port" --data-dir "$work/data" \
  >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
wait_ready "$port"
wrk -t2 -c64 -d10s --latency "http://127.0.0.1:$port/healthz" >"$work/wrk-healthz.txt"
kill -TERM $server; wait $server || true
trap - EXIT

rps=$(awk '/^Requests\/sec/ {print $2}' "$work/wrk-healthz.txt")
p50=$(awk '$1=="50%" {print $2}' "$work/wrk-healthz.txt")
p90=$(awk '$1=="90%" {print $2}' "$work/wrk-healthz.txt")
p99=$(awk '$1=="99%" {print $2}' "$work/wrk-healthz.txt")

# --- WebAuthn verification: passkeyd replay --bench vs the Python peers, each ceremony against its target ratio ---
# The workload generator and the peers live in the shared folder: ../shared in CI, /work/shared on the dev machine.
shared="$(bench_shared_dir || true)"
venv=$bench_venv
bench_python_tools
{
  echo "## WebAuthn verification: \`passkeyd replay --bench\` vs the Python peers"
  echo
  if [ -z "$shared" ]; then
    echo "Not measured: the shared benchmark folder (../shared/bench or /work/shared/bench) was not found."
  else
    bench_workload "$shared" "$work/workload.jsonl" "$work/gen.log"
    # Paired rounds: passkeyd, then the peers, BENCH_ROUNDS times (default 5). A shared host drifts by several
    # per cent within minutes; each round's ratio compares two runs made back to back, and the table reports the
    # round with the median ratio, so one slow phase cannot decide the result either way. Five rather than three:
    # single rounds moved by 1–2% on this host, and the median of five is the steadier figure.
    rounds="${BENCH_ROUNDS:-5}"
    rm -f "$work"/replay-*.json "$work"/replay-*.txt "$work"/peers-*.json "$work"/peers-*.log "$work"/floor-*.json
    # The OpenSSL calls of one authentication made straight from C (scripts/bench/bench-floor.c), in every round too.
    # Any C compiler: the system's cc, or the clang that comes with the Swift toolchain.
    floor_ok=1
    compiler="${CC:-$(command -v cc || command -v clang || echo cc)}"
    "$compiler" -O2 -o "$work/bench-floor" scripts/bench/bench-floor.c -lcrypto 2>"$work/floor.err" || floor_ok=0
    for round in $(seq 1 "$rounds"); do
      bench_replay "$binary" "$work/workload.jsonl" "$work/replay-$round" "$work/replay.err" || true
      "${one_core[@]}" "$venv/bin/python" "$shared/bench/peers.py" --workload "$work/workload.jsonl" \
        --json "$work/peers-$round.json" >"$work/peers-$round.log" 2>&1
      if [ "$floor_ok" = 1 ]; then
        "${one_core[@]}" "$work/bench-floor" >"$work/floor-$round.json" 2>>"$work/floor.err" || rm -f "$work/floor-$round.json"
      fi
    done
    "$venv/bin/python" - "$work" "$rounds" <<'PY'
import json, os, sys
work, rounds = sys.argv[1], int(sys.argv[2])
def load(path):
    try:
        return json.loads(open(path).read())
    except (OSError, ValueError):
        return None
replays = [load(f"{work}/replay-{n}.json") for n in range(1, rounds + 1)]
peers = [load(f"{work}/peers-{n}.json") for n in range(1, rounds + 1)]
floors = [load(f"{work}/floor-{n}.json") for n in range(1, rounds + 1)]
if not any(peers):
    print("Not measured: `peers.py` failed (see build/bench/peers-*.log).")
    sys.exit(0)
env = next(p for p in peers if p)["env"]
counts = ", ".join(f"{count} {name}" for name, count in env["counts"].items())
print(f"Workload: `gen_ceremonies.py` (ES256; {counts}), sha256 `{env['workload_sha256'][:16]}…`. "
      f"Both sides pinned to one core (`taskset -c 0`). Peers: py_webauthn {env['webauthn']}, python-fido2 "
      f"{env['fido2']}, Python {env['python']}, {env['cryptography_openssl']}. Each side's figure for a run is the "
      f"median of five repetitions (passkeyd's interleaved across categories, as the peers' are). {rounds} paired "
      f"rounds, each `passkeyd replay --bench` and then `peers.py`; each row shows the round with the median "
      f"ratio, and every round's ratio.")
print()
if not any(replays):
    reason = open(f"{work}/replay.err").read().strip().splitlines() if os.path.exists(f"{work}/replay.err") else []
    print(f"passkeyd: not measured (`passkeyd replay --bench` failed: {reason[-1] if reason else 'no output'}).")
    print()
def peer(run, name, field="ops_per_s_median"):
    if not run:
        return None
    return next((r.get(field) for r in run["results"] if r["name"] == name), None)
rows = [("authentication", "authentication", 1.7), ("registration.none", "registration-none", 4.0),
        ("registration.packed", "registration-packed", 1.7)]
print("| ceremony | passkeyd /s | py_webauthn /s | python-fido2 /s | passkeyd ÷ py_webauthn | every round | target | met |")
print("|---|---:|---:|---:|---:|---|---:|:---:|")
median_round = {}
for key, category, target in rows:
    paired = []
    for n in range(rounds):
        ours = ((replays[n] or {}).get(key) or {}).get("per_second")
        pw = peer(peers[n], f"py_webauthn {category}")
        if ours and pw:
            paired.append((ours / pw, n))
    if not paired:
        print(f"| {key} | — | — | — | — | — | ≥ {target}× | — |")
        continue
    ordered = sorted(paired)
    ratio, n = ordered[(len(ordered) - 1) // 2]  # the lower median when the count is even
    median_round[key] = n
    ours = replays[n][key]["per_second"]
    pw = peer(peers[n], f"py_webauthn {category}")
    fd = peer(peers[n], f"fido2 {category}")
    every = ", ".join(f"{r:.3f}×" for r, _ in sorted(paired, key=lambda item: item[1]))
    cells = [key, f"{ours:,.0f}", f"{pw:,.0f}", f"{fd:,.0f}" if fd else "—", f"{ratio:.3f}×", every,
             f"≥ {target}×", "yes" if ratio >= target else "**no**"]
    print("| " + " | ".join(cells) + " |")
n = median_round.get("authentication")
if n is not None:
    run = peers[n]
    floor = next((r["us_per_op_median"] for r in run["results"]
                  if r["name"].startswith("component: cryptography P-256 ECDSA verify")), None)
    pw_auth = peer(run, "py_webauthn authentication", "us_per_op_median")
    ours_auth = replays[n]["authentication"]["per_second"]
    if floor and pw_auth:
        print()
        print(f"The floor (round {n + 1}): one P-256 ECDSA verify through `cryptography` (its SHA-256 included) "
              f"costs {floor:.1f} µs on this core. A py_webauthn authentication costs {pw_auth:.1f} µs, passkeyd's "
              f"{1e6 / ours_auth:.1f} µs (verify included); 1.7× py_webauthn would be {pw_auth / 1.7:.1f} µs, "
              f"{pw_auth / 1.7 - floor:+.1f} µs from that verify alone.")
    if floors[n]:
        calls, verify = floors[n]["calls_us"], floors[n]["verify_us"]
        ours_us = 1e6 / ours_auth
        print()
        print(f"passkeyd's own share (round {n + 1}): the OpenSSL calls one authentication makes, run straight from C "
              f"(`scripts/bench/bench-floor.c`: point decoding and validation, strict DER, two SHA-256, "
              f"`ECDSA_do_verify`; {floors[n]['keys']:,} distinct keys), take {calls:.1f} µs, {verify:.1f} µs of it "
              f"`ECDSA_do_verify`. passkeyd's authentication takes {ours_us:.1f} µs: {ours_us - calls:.1f} µs on top "
              f"of those calls, for base64url, clientDataJSON, authenticator data, the COSE key and the checks. "
              + (f"1.7× py_webauthn leaves {pw_auth / 1.7 - calls:.1f} µs on top of them; with nothing on top, "
                 f"the ratio would be {pw_auth / calls:.2f}×." if pw_auth else ""))
    mint = peer(run, "PyJWT ES256 mint")
    if mint:
        print()
        print(f"For scale, PyJWT mints {mint:,.0f} ES256 tokens/s on the same core.")
print()
PY
  fi
} >"$work/section-1-replay.md"

# --- End-to-end logins: passkeyd-loadgen against the release server, durable SQLite ---------------------------
# A data directory on disk (not tmpfs), synchronous=full, a rate limit above what the benchmark sends, warning-level
# logs. The load generator shares the 2 cores with the server.
login_data="$(mktemp -d "$PWD/$work/login-data.XXXXXX")"
loadavg_before="$(cut -d' ' -f1-3 /proc/loadavg)"
port=$((20000 + RANDOM % 20000))
admin_port=$((port + 2))
: >"$work/login-server.log"
bench_sqlite_server "$port" "$login_data" "$work/login-server.log" "127.0.0.1:$admin_port"
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$login_data"' EXIT
wait_ready "$port"
bench_signup "$port" "$login_data/credentials.jsonl" "$work/signup.json"
: >"$work/login-runs.jsonl"
# The measured runs (the clients' keep-alive connections multiplexed over one poll(2) loop per core), then, for
# comparison, 64 clients with one blocking thread each and 16 through URLSession: the reason the load generator
# carries its own minimal HTTP/1.1 client. The 64-client target run is repeated three times: on this shared
# machine one run's p99 moves by a few milliseconds with the host's speed, and all three are reported. The last
# measured run offers the target rate, 2,500 logins/s, from 64 clients (open loop, `--rate`) instead of as many
# logins as the clients can do one after the other.
index=0
for run in 16:poll:10 64:poll:10 64:poll:10 64:poll:10 64:poll:10:2500 64:socket:10 16:urlsession:5; do
  IFS=: read -r concurrency transport _ <<<"$run"
  index=$((index + 1))
  bench_login_run "$server" "$port" "$admin_port" "$login_data/credentials.jsonl" "$run" "$work" \
    "$index-$concurrency-$transport" >>"$work/login-runs.jsonl"
done
# A profile of the server under the 64-client load (not during the measured runs): perf samples with call graphs,
# inclusive share of the server's CPU per function, the functions of passkeyd's own modules and the fsyncs.
: >"$work/server-profile.txt"
: >"$work/server-profile-full.txt"
if command -v perf >/dev/null 2>&1; then
  "$loadgen" --url "http://127.0.0.1:$port" --login --credentials "$login_data/credentials.jsonl" \
    --concurrency 64 --seconds 6 --warmup 0 >/dev/null 2>&1 &
  profiled_load=$!
  sleep 0.5
  # DWARF call graphs: the release build keeps no frame pointers, so `-g` would lose most callers.
  if perf record -F 499 --call-graph dwarf,16384 -p "$server" -o "$work/server-perf.data" -- sleep 5 >/dev/null 2>&1; then
    perf report -i "$work/server-perf.data" --stdio --children --sort sym -g none --percent-limit 0.05 2>/dev/null |
      grep '%' | grep -v '^#' | swift demangle --simplified >"$work/server-profile-full.txt" || true
    grep -E ' (static |specialized )*(Base64URL|JWTSigner|TokenService|TokenEndpoint|PasskeyEndpoint|WebAuthnGrant|CeremonyVerifier|CeremonyChallenges|AuthenticationVerifier|RegistrationVerifier|PublicKeyCredentialJSON|AuthSession|SQLite|Store|JSON|P256|EC|Digest|Router|MicroHTTPD)[A-Za-z]*[.(]|fdatasync|sqlite3_step|EVP_DigestSign|EVP_DigestVerify' "$work/server-profile-full.txt" |
      awk '{pct=$1; $1=""; $2=""; $3=""; sub(/^ +/, ""); print pct "\t" $0}' | head -25 >"$work/server-profile.txt" || true
  fi
  wait "$profiled_load" || true
fi
kill -TERM $server; wait $server || true
rm -rf "$login_data"
trap - EXIT

# Scale: the same 64-client closed loop against a database that already holds a million refresh tokens (a month of
# logins for a service with ~30,000 daily users at the default 30-day lifetime). The server signs up its users,
# stops, gets the rows inserted directly with the sqlite3 shell (random 32-byte hashes, like real ones, so the
# hash index is as scattered as in production), and starts again on the grown file.
large_tokens=1000000
large_data="$(mktemp -d "$PWD/$work/large-data.XXXXXX")"
: >"$work/large-runs.jsonl"
start_large() {
  port=$((20000 + RANDOM % 20000))
  bench_sqlite_server "$port" "$large_data" "$work/large-server.log" ""
  server=$!
  wait_ready "$port"
}
if command -v sqlite3 >/dev/null 2>&1; then
  trap 'kill $server 2>/dev/null || true; rm -rf "$large_data"' EXIT
  start_large
  bench_signup "$port" "$large_data/credentials.jsonl" /dev/null
  kill -TERM $server; wait $server || true
  # Times are seconds since 2001-01-01 (Foundation's reference date), as the store writes them: issued over the
  # last 30 days, so they expire over the next 30.
  sqlite3 "$large_data/passkeyd.sqlite" "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < $large_tokens),
    t(now) AS (SELECT unixepoch() - 978307200)
    INSERT INTO refresh_tokens (token_hash, family_id, client_id, user_id, scope, auth_time, created_at,
      absolute_expires_at, idle_expires_at, rotated_at, revoked_at) SELECT randomblob(32), lower(hex(randomblob(16))), 'demo-native-app',
      (SELECT id FROM users ORDER BY random() LIMIT 1), 'openid profile email offline_access',
      now - 2592000 + x * 2.592, now - 2592000 + x * 2.592, now + x * 2.592, now + 1209600, NULL, NULL FROM n, t;"
  large_bytes=$(stat -c %s "$large_data/passkeyd.sqlite")
  start_large
  for run in 1 2; do
    "$loadgen" --url "http://127.0.0.1:$port" --login --credentials "$large_data/credentials.jsonl" \
      --concurrency 64 --seconds 10 --warmup 1 | tail -1 |
      python3 -c "import json, sys; r = json.load(sys.stdin); r['database_bytes'] = $large_bytes; r['extra_refresh_tokens'] = $large_tokens; print(json.dumps(r))" \
      >>"$work/large-runs.jsonl" || true
  done
  kill -TERM $server; wait $server || true
  trap - EXIT
fi
rm -rf "$large_data"

# What one RSA-2048 signature costs on this machine: the default client's ID tokens are RS256 (OIDC's default).
rsa_sign_us="$(openssl speed -seconds 1 rsa2048 2>/dev/null | awk '/^rsa 2048 bits/ {printf "%.0f", $4 * 1e6}')"
python3 - "$work/signup.json" "$work/login-runs.jsonl" "$(nproc)" "$loadavg_before" "$work/server-profile.txt" \
  "$work/large-runs.jsonl" "$work/server-profile-full.txt" "${rsa_sign_us:-?}" >"$work/section-2-login.md" <<'PY'
import json, sys
signup = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
runs = [json.loads(line) for line in open(sys.argv[2]) if line.strip()]
cores = int(sys.argv[3])
loadavg = sys.argv[4]
print("## End-to-end passkey logins (`passkeyd-loadgen`)")
print()
print("Each virtual client loops over a full Auth0-style login: `POST /passkey/challenge`, an ES256 assertion by "
      "the software authenticator, `POST /oauth/token` (webauthn grant, scope `openid profile email offline_access`: "
      "access, ID and refresh tokens). The ID token is RS256, the default of a client since issue #20 (OIDC Core's "
      "default `id_token_signed_response_alg`; Auth0's SDKs accept no other): one RSA-2048 signature costs "
      f"{sys.argv[8]} µs of CPU on this machine (`openssl speed rsa2048`), more than the rest of a login's server "
      "work; a client set to `id_token_signed_response_alg: ES256` does not pay it. Latency is the whole login. Release server, SQLite in WAL mode with "
      "`synchronous=full` on disk, log level warning; the load generator runs on the same "
      f"{cores} cores, one keep-alive HTTP/1.1 connection per client: `poll` multiplexes them over one poll(2) "
      "loop per core, `socket` gives each client a blocking thread, `urlsession` goes through Foundation. "
      f"{signup['users']} users signed up first "
      f"({signup['signups_per_second']:.0f} sign-ups/s at 16 clients); 1 s warm-up, then 10 s measured. "
      f"Load average just before the runs (other work on the machine): {loadavg}.")
print()
print("| clients | client HTTP | offered | seconds | logins/s | p50 | p90 | p99 | max | failures "
      "| target ≥ 2,500/s at p99 ≤ 25 ms |")
print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|:---:|")
def met(run):
    offered = run.get("offered_per_second")
    if offered:  # paced: every offered login completed (the schedule's rounding aside) at the target rate
        served = run["failures"] == 0 and run["logins"] >= 0.999 * offered * run["seconds"] and offered >= 2500
        return served and run["p99_ms"] <= 25
    return run["logins_per_second"] >= 2500 and run["p99_ms"] <= 25
for run in runs:
    verdict = ("yes" if met(run) else "**no**") if run["transport"] == "poll" else "(comparison)"
    offered = f"{run['offered_per_second']:,.0f}/s" if run.get("offered_per_second") else "as fast as it can"
    print(f"| {run['concurrency']} | {run['transport']} | {offered} | {run['seconds']:.0f} | {run['logins_per_second']:,.0f} "
          f"| {run['p50_ms']:.1f} ms | {run['p90_ms']:.1f} ms | {run['p99_ms']:.1f} ms | {run['max_ms']:.1f} ms "
          f"| {run['failures']} | {verdict} |")
print()
target = [run for run in runs
          if run["transport"] == "poll" and run["concurrency"] == 64 and not run.get("offered_per_second")]
if target:
    count = sum(1 for run in target if met(run))
    print(f"64 clients as fast as they can (`poll`, closed loop): the target was met in {count} of {len(target)} "
          "consecutive runs on one server (each run adds its refresh tokens to the same database); p99 "
          + ", ".join(f"{run['p99_ms']:.1f}" for run in target) + " ms. These runs saturate both cores, so their "
          "latency is the queue: 64 logins in flight over the throughput (Little's law). The paced run offers the "
          "target rate instead, each login timed from its scheduled start (`--rate`, no coordinated omission).")
    print()
print("Where the time goes (CPU per successful login, from the processes' CPU counters; server time per request "
      "from `/metrics`, end of request body to response):")
print()
print("| clients | client HTTP | server CPU/login | load generator CPU/login | client work (wall) | CPU used of "
      f"{cores} cores | CPU-bound ceiling | server mean `/passkey/challenge` | server mean `/oauth/token` |")
print("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
for run in runs:
    logins = max(1, run["logins"])
    server = run["server_cpu_seconds"] / logins * 1e6
    client = run["loadgen_cpu_seconds"] / logins * 1e6
    busy = (run["server_cpu_seconds"] + run["loadgen_cpu_seconds"]) / (run["seconds"] + 1) / cores * 100
    routes = run.get("server_mean_ms_by_route", {})
    ceiling = cores * 1e6 / (server + client) if server + client > 0 else 0
    # Paced below saturation, threads sleep between requests and batches are small, so CPU per login is higher
    # than at full load and says nothing about the ceiling.
    paced = f" at {run['offered_per_second']:,.0f}/s" if run.get("offered_per_second") else ""
    ceiling_text = "—" if paced else f"{ceiling:,.0f} logins/s"
    print(f"| {run['concurrency']} | {run['transport']}{paced} | {server:,.0f} µs | {client:,.0f} µs "
          f"| {run['client_work_us_per_login']:.0f} µs "
          f"| {busy:.0f}% | {ceiling_text} | {routes.get('/passkey/challenge', 0):.2f} ms "
          f"| {routes.get('/oauth/token', 0):.2f} ms |")
print()
large = [json.loads(line) for line in open(sys.argv[6]) if line.strip()]
if large:
    print(f"A large database: the same 64-client closed loop on a server whose database already holds "
          f"{large[0]['extra_refresh_tokens']:,} refresh tokens ({large[0]['database_bytes'] / 2**20:,.0f} MiB; "
          "rows inserted directly, random hashes like real ones), two runs. It runs last, after three minutes of load "
          "on the shared host, and is not the acceptance workload (that is the fresh database above); it shows how the "
          "same load fares once the database has grown:")
    print()
    print("| clients | logins/s | p50 | p90 | p99 | max | failures | target ≥ 2,500/s at p99 ≤ 25 ms |")
    print("|---:|---:|---:|---:|---:|---:|---:|:---:|")
    for run in large:
        print(f"| {run['concurrency']} | {run['logins_per_second']:,.0f} | {run['p50_ms']:.1f} ms | {run['p90_ms']:.1f} ms "
              f"| {run['p99_ms']:.1f} ms | {run['max_ms']:.1f} ms | {run['failures']} | {'yes' if met(run) else '**no**'} |")
    print()
    print("Copying the WAL into a file this size takes about 11 ms per 1,000 frames (4 ms in a fresh one): the hash "
          "index's pages are scattered. That copy runs on a connection of its own, not the writer's "
          "(docs/design-notes.md, Storage).")
    print()
print("CPU seconds include the 1 s warm-up, so the per-login figures are slightly high. *Client work* is the wall "
      "time from the challenge response to the token request (parse, sign, serialise), preemption included. The "
      "*CPU-bound ceiling* is what both processes' CPU per login would allow on all cores of an otherwise idle "
      "machine; when *CPU used* is well below 100% on a quiet machine, the limit is waiting (storage, locks), not CPU. "
      "The paced run has no ceiling: below saturation threads sleep between requests and group commits are small, "
      "so its CPU per login is higher than at full load.")
print()
profile = [line.rstrip("\n").split("\t", 1) for line in open(sys.argv[5]) if "\t" in line]
if profile:
    print("Server profile under the 64-client load (`perf record -g`, 5 s, separate from the measured runs): "
          "inclusive share of the server process's samples, passkeyd's own functions and the fsyncs.")
    print()
    print("| share | function |")
    print("|---:|---|")
    for share, name in profile:
        print(f"| {share} | `{name[:110]}` |")
    print()
# The audit log's cost (issue #17: at most 10% of a login): the inclusive share of the server's samples in its three
# parts, which are disjoint call trees: the event INSERT inside the login's write, the sequencer's batches (canonical
# entries, leaf hashes, leaf rows) and the checkpointer. Each part's figure is its largest frame (a function and its
# protocol witness both carry the whole subtree).
parts = {"the event in the login's write (`appendSecurityEvent`)": "appendSecurityEvent",
         "the sequencer (`AuditSequencer`)": "AuditSequencer.",
         "the checkpointer (`AuditCheckpointer`)": "AuditCheckpointer."}
shares = {label: 0.0 for label in parts}
for line in open(sys.argv[7]):
    fields = line.split()
    if not fields or not fields[0].endswith("%"):
        continue
    for label, needle in parts.items():
        if needle in line:
            shares[label] = max(shares[label], float(fields[0].rstrip("%")))
if any(shares.values()):
    total = sum(shares.values())
    print(f"The audit log's share of the server's CPU under this load (same profile, DWARF call graphs): "
          f"**{total:.1f}%** — " + ", ".join(f"{label} {share:.1f}%" for label, share in shares.items()) +
          f". Budget: 10% of a login (issue #17): {'met' if total <= 10 else '**not met**'}. The server's CPU is "
          "most of a login's CPU (table above), so this bounds what the log costs in logins/s; the WAL's growth by the "
          "log's rows (checkpoint copies) is not in it.")
    print()
PY

# --- End-to-end logins on PostgreSQL: one node and two nodes on a throwaway cluster, against the SQLite figure ---
# A failure here is reported in its section and does not stop the report.
if ! scripts/bench/bench-postgres.sh "$work/section-3-postgres.md" "$work/login-runs.jsonl" >"$work/pg-bench.log" \
  2>&1; then
  {
    echo "## End-to-end passkey logins on PostgreSQL"
    echo
    echo "Not measured: \`scripts/bench/bench-postgres.sh\` failed (last lines of build/bench/pg-bench.log below; the"
    echo "servers' logs are build/bench/pg-node*.log)."
    echo
    echo '```'
    tail -n 5 "$work/pg-bench.log"
    echo '```'
    echo
  } >"$work/section-3-postgres.md"
fi

{
  echo "# passkeyd benchmarks"
  echo
  echo "Generated by \`make bench\` (release build) on $now."
  echo
  echo "Comparing two builds, a change's before and after: \`make bench-ab OLD=REF NEW=REF\` (defaults 53ef89a, the"
  echo "commit before issue 34's split, and HEAD; \`BENCH_ROUNDS=N\`, default 5) builds each ref's release binary in"
  echo "a git worktree of its own under build/ab, runs paired rounds, A then B and B then A in turn, of \`replay --bench\` on one"
  echo "workload and of the 64-client login run below on fresh servers, and writes per figure A's and B's medians, B"
  echo "÷ A and every round's B ÷ A to docs/benchmarks-ab.md (scripts/bench/ab.sh). On this shared host only ratios"
  echo "measured in one run count."
  echo
  echo "Machine: $machine."
  echo
  echo "## HTTP: \`GET /healthz\`"
  echo
  echo "wrk, 2 threads, 64 connections, 10 s, server and load generator on the same 2 cores."
  echo
  echo "| requests/s | p50 | p90 | p99 |"
  echo "|---:|---:|---:|---:|"
  echo "| $rps | $p50 | $p90 | $p99 |"
  echo
} >"$out"
for section in build/bench/section-*.md; do
  [ -f "$section" ] && cat "$section" >>"$out"
done
echo "wrote $out"
