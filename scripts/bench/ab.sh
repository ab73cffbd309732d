#!/usr/bin/env bash
# An A/B of two passkeyd builds in one run: scripts/bench/ab.sh [OLD_REF] [NEW_REF] (defaults 53ef89a, the commit
# before issue 34's split, and HEAD; `make bench-ab OLD=… NEW=…`). Writes docs/benchmarks-ab.md and prints it.
#
# Each ref's release `passkeyd` is built in a git worktree of its own, build/ab/a and build/ab/b (added detached
# on the first run, checked out again on the next, so a second run rebuilds only what changed); the working tree is
# not touched. `passkeyd-loadgen` comes from NEW and drives both servers, each run with its own ref's
# Config/passkeyd.json. Then BENCH_ROUNDS (default 5) paired rounds, A then B in odd rounds and B then A in even ones (so that running
# second, on a warmer or busier host, favours neither side): `replay --bench` of both on
# the same generated workload, pinned to one core, then the login load of `make bench`'s target runs (200 users
# signed up at 16 clients, then 64 clients over `poll` in a closed loop, 1 s warm-up, 10 s measured, through the
# RS256 client and then the ES256 one of the benchmark configuration, bench_write_config over each ref's own file),
# each server on a fresh data directory, durable SQLite, measured as bench.sh measures it
# (scripts/bench/lib/common.sh: server CPU and context switches per login over the measured window). Each round
# starts with the cryptographic floor of a login (`bench-floor login`), which both builds' CPU per login that round
# is divided by. The table gives each figure's median for A and B, B ÷ A, and every round's B ÷ A: a shared host
# drifts by several per cent within minutes, and a round's pair ran back to back.
#
# Exits non-zero only when something fails to run (a build, a server, a benchmark), never on a regression.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/dev/lib.sh
source scripts/bench/lib/common.sh
export PATH="$PATH:/opt/swift/usr/bin"

old_ref="${1:-53ef89a}"
new_ref="${2:-HEAD}"
rounds="${BENCH_ROUNDS:-5}"
# bench.sh's acceptance run (the 64-client closed loop its target is measured on).
login_run=64:poll:10
out=docs/benchmarks-ab.md
ab=build/ab
work=$ab/work

fail() {
  echo "$(basename "$0"): $*" >&2
  exit 1
}

a_commit="$(git rev-parse --verify --quiet "$old_ref^{commit}")" || fail "$old_ref is not a commit"
b_commit="$(git rev-parse --verify --quiet "$new_ref^{commit}")" || fail "$new_ref is not a commit"
mkdir -p "$work" docs
rm -f "$work"/replay-* "$work"/login-* "$work"/metrics-* "$work"/run-* "$work"/signup-* "$work"/server-*.log \
  "$work"/floor-*.json

# checkout SLOT COMMIT: the worktree build/ab/SLOT at COMMIT, detached; added when missing (-f: also when a removed
# build/ left it registered), reused otherwise.
checkout() {
  local dir="$ab/$1"
  if [ -e "$dir/.git" ]; then
    git -C "$dir" checkout --quiet --force --detach "$2"
  else
    git worktree add --quiet --force --detach "$dir" "$2"
  fi
}

# build SLOT PRODUCT…: release builds in build/ab/SLOT, as bench.sh builds (its output in build/ab/work/build-SLOT.log).
build() {
  local slot=$1 product
  shift
  echo "building $* at $(git -C "$ab/$slot" rev-parse --short HEAD) in $ab/$slot"
  for product in "$@"; do
    swift build --package-path "$ab/$slot" -c release --product "$product" >>"$work/build-$slot.log" 2>&1 ||
      fail "the release build of $product in $ab/$slot failed (see $work/build-$slot.log)"
  done
}

: >"$work/build-a.log"
: >"$work/build-b.log"
checkout a "$a_commit"
checkout b "$b_commit"
build a passkeyd
build b passkeyd passkeyd-loadgen
declare -A binaries=([a]="$ab/a/.build/release/passkeyd" [b]="$ab/b/.build/release/passkeyd")
loadgen="$ab/b/.build/release/passkeyd-loadgen"
# The benchmark configuration of each ref (its own Config/passkeyd.json plus the ES256 client) and the floor program
# (this working tree's scripts/bench/bench-floor.c).
for slot in a b; do bench_write_config "$ab/$slot/Config/passkeyd.json" "$work/config-$slot.json"; done
bench_floor_build "$work/bench-floor" 2>"$work/floor.err" || fail "scripts/bench/bench-floor.c did not build (see $work/floor.err)"

shared="$(bench_shared_dir)" || fail "the shared benchmark folder (../shared/bench or /work/shared/bench) was not found"
bench_workload "$shared" "$work/workload.jsonl" "$work/gen.log" || fail "gen_ceremonies.py failed (see $work/gen.log)"

server=""
login_data=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
  if [ -n "$login_data" ]; then rm -rf "$login_data"; fi
}
trap cleanup EXIT

# logins SLOT ROUND: the login loads against SLOT's server on a fresh data directory (on disk, as in bench.sh), RS256
# ID tokens and then ES256 ones, their results in build/ab/work/run-SLOT-ROUND-ALG.json.
logins() {
  local slot=$1 round=$2 port admin_port
  login_data="$(mktemp -d "$PWD/$work/login-data.XXXXXX")"
  port=$(free_port)
  admin_port=$(free_port)
  while [ "$admin_port" = "$port" ]; do admin_port=$(free_port); done
  binary=${binaries[$slot]} bench_config="$work/config-$slot.json" \
    bench_sqlite_server "$port" "$login_data" "$work/server-$slot.log" "127.0.0.1:$admin_port"
  server=$!
  wait_ready "$port" || fail "the $slot server did not start (see $work/server-$slot.log)"
  bench_signup "$port" "$login_data/credentials.jsonl" "$work/signup-$slot-$round.json" ||
    fail "the sign-ups against the $slot server failed"
  local alg
  for alg in RS256 ES256; do
    bench_login_run "$server" "$port" "$admin_port" "$login_data/credentials.jsonl" "$login_run" "$work" \
      "$slot-$round-$alg" "$alg" >"$work/run-$slot-$round-$alg.json" ||
      fail "the login run against the $slot server failed (see $work/login-$slot-$round-$alg.json)"
  done
  kill -TERM "$server" 2>/dev/null || true
  wait "$server" || true
  server=""
  rm -rf "$login_data"
  login_data=""
}

loadavg_before="$(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "$rounds"); do
  echo "round $round of $rounds"
  bench_floor_login "$work/bench-floor" "$work/floor-$round.json" 2>>"$work/floor.err" ||
    fail "bench-floor login failed (see $work/floor.err)"
  order="a b"
  if [ $((round % 2)) -eq 0 ]; then order="b a"; fi
  for slot in $order; do
    bench_replay "${binaries[$slot]}" "$work/workload.jsonl" "$work/replay-$slot-$round" "$work/replay-$slot.err" ||
      fail "\`passkeyd replay --bench\` of $slot failed (see $work/replay-$slot.err)"
  done
  for slot in $order; do logins "$slot" "$round"; done
done

python3 scripts/bench/ab_report.py "$work" "$rounds" "$old_ref" "$a_commit" "$new_ref" "$b_commit" \
  "$(bench_machine_line)" "$loadavg_before" "$login_run" >"$work/report.md"
cp "$work/report.md" "$out"
cat "$out"
echo "wrote $out"
