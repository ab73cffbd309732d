# What the benchmark scripts share: how the machine is described, the single core the single-threaded comparisons
# run on, the verification workload, a `replay --bench` run and a measured login run. Sourced, never run, by
# scripts/bench/bench.sh (`make bench`) and scripts/bench/ab.sh (`make bench-ab`), after scripts/dev/lib.sh (whose
# bench_sqlite_server starts the server they measure). Run from the repository's root.

# bench_machine_line: one line naming the cores, the memory, the kernel and the Swift toolchain.
bench_machine_line() {
  echo "$(nproc) cores ($(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr), $(swift --version 2>&1 | head -1)"
}

# One core for the single-threaded comparisons, when taskset is there: "${one_core[@]}" COMMAND….
one_core=()
if command -v taskset >/dev/null 2>&1; then one_core=(taskset -c 0); fi

# bench_shared_dir: prints the shared folder holding bench/gen_ceremonies.py and bench/peers.py (../shared in CI,
# /work/shared on the dev machine), or fails when there is none.
bench_shared_dir() {
  local candidate
  for candidate in ../shared /work/shared; do
    if [ -f "$candidate/bench/gen_ceremonies.py" ]; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

# The benchmark's own virtualenv (the workload generator's and the Python peers' packages), created when missing.
bench_venv=build/bench-venv
bench_python_tools() {
  if [ ! -x "$bench_venv/bin/python" ] ||
    ! "$bench_venv/bin/python" -c 'import cryptography, cbor2, webauthn, fido2, jwt' 2>/dev/null; then
    python3 -m venv "$bench_venv"
    "$bench_venv/bin/pip" install -q --disable-pip-version-check cryptography cbor2 webauthn fido2 PyJWT
  fi
}

# bench_workload SHARED OUT LOG: writes the verification workload (gen_ceremonies.py: deterministic ES256
# registrations and authentications) to OUT, the generator's output to LOG.
bench_workload() {
  bench_python_tools
  "$bench_venv/bin/python" "$1/bench/gen_ceremonies.py" --out "$2" >"$3" 2>&1
}

# bench_replay BINARY WORKLOAD OUT ERR: one `replay --bench` of BINARY on WORKLOAD, pinned to one core; its output in
# OUT.txt, its JSON line (ceremonies/s per category) in OUT.json, its errors in ERR. Fails when the run fails.
bench_replay() {
  local binary=$1 workload=$2 out=$3 err=$4
  "${one_core[@]}" "$binary" replay --bench "$workload" >"$out.txt" 2>"$err" || return 1
  tail -n 1 "$out.txt" >"$out.json"
}

# bench_process_cpu PID: user + system seconds of the process so far.
bench_process_cpu() {
  awk -v hz="$(getconf CLK_TCK)" '{print ($14 + $15) / hz}' "/proc/$1/stat"
}

# bench_metrics_sums ADMIN_PORT: per-route request count and summed duration (s) from /metrics on the admin listener.
bench_metrics_sums() {
  curl -fsS "http://127.0.0.1:$1/metrics" | awk '/^passkeyd_http_request_duration_seconds_(sum|count)\{/ {print}'
}

# bench_signup PORT CREDENTIALS OUT: signs up the benchmark's 200 users (16 clients) on the server on PORT, their
# credentials into CREDENTIALS, the load generator's summary into OUT. Uses $loadgen.
bench_signup() {
  "$loadgen" --url "http://127.0.0.1:$1" --signup 200 --concurrency 16 --credentials "$2" >"$3"
}

# The client of the benchmark configuration whose ID tokens are ES256 (bench_write_config); the default client's are
# RS256 (OIDC's default `id_token_signed_response_alg`).
bench_es256_client=bench-es256

# bench_write_config IN OUT: the benchmarks' configuration file: IN (a Config/passkeyd.json) with a second client,
# $bench_es256_client, a copy of the first (the load generator's default, demo-native-app) that sets
# `id_token_signed_response_alg: ES256`. The same users log in through either (they belong to the realm). Access
# tokens are pinned to ES256 (`tokens.access_token_signing_alg`, RS256 by default since issue 37), so that a login's
# cryptographic floor stays one P-256 verify + one P-256 sign + the ID token's sign and the figures stay comparable
# with earlier runs; a tree older than the setting (its Sources do not name it, as in `make bench-ab` of an old
# ref) signs them with ES256 anyway and would refuse the unknown key.
bench_write_config() {
  local pin=0
  if grep -qs access_token_signing_alg "$(dirname "$1")/../Sources/Configuration/Settings/Settings+Tokens.swift"; then
    pin=1
  fi
  python3 - "$1" "$2" "$bench_es256_client" "$pin" <<'PY'
import copy, json, sys
config = json.load(open(sys.argv[1]))
client = copy.deepcopy(config["clients"][0])
client.update(client_id=sys.argv[3], name="Benchmark client with ES256 ID tokens", id_token_signed_response_alg="ES256")
config["clients"].append(client)
if sys.argv[4] == "1":
    config.setdefault("tokens", {})["access_token_signing_alg"] = "ES256"
json.dump(config, open(sys.argv[2], "w"), indent=2)
PY
}

# bench_client ALG: the benchmark configuration's client whose ID tokens are ALG (RS256 or ES256).
bench_client() {
  if [ "$1" = ES256 ]; then echo "$bench_es256_client"; else default_client_id; fi
}

# bench_floor_build OUT: compiles scripts/bench/bench-floor.c (the OpenSSL floor programs) to OUT with any C
# compiler: $CC, the system's cc, or the clang that comes with the Swift toolchain. Fails when none builds it.
bench_floor_build() {
  "${CC:-$(command -v cc || command -v clang || echo cc)}" -O2 -o "$1" scripts/bench/bench-floor.c -lcrypto
}

# bench_system_floor_build OUT: compiles scripts/bench/login-floor-server.c (issue #35's system floor: the login's
# unavoidable work in C on the same libraries) to OUT, as bench_floor_build compiles. Fails when it does not build.
bench_system_floor_build() {
  "${CC:-$(command -v cc || command -v clang || echo cc)}" -O2 -o "$1" scripts/bench/login-floor-server.c \
    -lmicrohttpd -lcrypto -lsqlite3 -lcbor -lpthread
}

# bench_floor_login PROGRAM OUT: the cryptographic floor of one login (`bench-floor login`, pinned to one core), its
# JSON line into OUT; removes OUT and fails when the program fails.
bench_floor_login() {
  "${one_core[@]}" "$1" login >"$2" || {
    rm -f "$2"
    return 1
  }
}

# bench_login_run SERVER_PID PORT ADMIN_PORT CREDENTIALS RUN DIR NAME [ALG]: one measured login run of $loadgen
# against the server (PID SERVER_PID, listening on PORT, /metrics on ADMIN_PORT) with the signed-up CREDENTIALS,
# through the client whose ID tokens are ALG (default RS256; ES256 needs the configuration of bench_write_config).
# RUN is CONCURRENCY:TRANSPORT:SECONDS[:RATE] (a rate makes it an open loop, `--rate`); 1 s warm-up. Prints the load
# generator's JSON line with `id_token_alg`, the server's CPU seconds around the run (`server_cpu_seconds`, warm-up
# included), its CPU and context switches per login over the measured window alone (`server_cpu_us_per_login`,
# `context_switches_per_login`: the load generator samples the server's /proc at the window's edges, `--server-pid`,
# and divides by the logins that ended in it) and its mean time per /passkey and /oauth route
# (`server_mean_ms_by_route`, from /metrics); keeps the raw files as DIR/login-NAME.json and
# DIR/metrics-{before,after}-NAME.txt. Fails when the load generator printed no result.
bench_login_run() {
  local pid=$1 port=$2 admin_port=$3 credentials=$4 run=$5 dir=$6 name=$7 alg=${8:-RS256}
  local concurrency transport seconds rate cpu_before cpu_after
  IFS=: read -r concurrency transport seconds rate <<<"$run"
  local pacing=()
  [ -n "$rate" ] && pacing=(--rate "$rate")
  cpu_before=$(bench_process_cpu "$pid")
  # An empty ADMIN_PORT: a server without /metrics (the system floor's), no route means.
  if [ -n "$admin_port" ]; then bench_metrics_sums "$admin_port" >"$dir/metrics-before-$name.txt"; else : >"$dir/metrics-before-$name.txt"; fi
  "$loadgen" --url "http://127.0.0.1:$port" --login --credentials "$credentials" --client-id "$(bench_client "$alg")" \
    --concurrency "$concurrency" --seconds "$seconds" --warmup 1 --transport "$transport" "${pacing[@]}" \
    --server-pid "$pid" >"$dir/login-$name.json" ||
    true
  cpu_after=$(bench_process_cpu "$pid")
  if [ -n "$admin_port" ]; then bench_metrics_sums "$admin_port" >"$dir/metrics-after-$name.txt"; else : >"$dir/metrics-after-$name.txt"; fi
  python3 scripts/bench/lib/login_run.py "$dir/login-$name.json" "$cpu_before" "$cpu_after" \
    "$dir/metrics-before-$name.txt" "$dir/metrics-after-$name.txt" "$alg"
}
