#!/usr/bin/env python3
"""Load for the PostgreSQL fault check: POST /passkey/challenge (one write each) from several threads, and refresh
token chains (rotate, rotate, …) for a fixed time, then judge the answers.
Usage: postgres_faults.py BASE_URL CLIENT_ID SECONDS MARKER_DIR fast|immediate [REFRESH_TOKEN …]
`immediate` (the database killed as in a crash) also accepts a 500 from a request whose COMMIT was in flight at
the kill, within a second of it: the server asks the restarted database whether that COMMIT happened and answers
200 or 503, but answers 500 (outcome unknown, docs/api.md) if the database is not back within 10 s, as on a
loaded machine. A chain that got one stops there, and its newest token is not judged (it may or may not have
rotated) — its older ones still are.
The outage is timed from files the caller creates in MARKER_DIR: `down` once the database is stopped, `up` once
it accepts connections again.

Passes when every answer is 200 or 503 (none 500, none unanswered or slower than the limit), some 503s fell in
the outage (the database really was gone), and every request started two seconds after the outage ended got 200
(the server reconnected by itself). And no acknowledged write is lost: each chain retries a 503 with the same
token (a 503 promises nothing was written, so that is no reuse), and at the end every chain's newest token works
once and every token it rotated (answered 200 for) is refused."""
import os
import sys
import threading
import time

from passkeyd_http import attempt

base, client_id = sys.argv[1], sys.argv[2]
seconds, markers, mode = float(sys.argv[3]), sys.argv[4], sys.argv[5]
chains = [[token] for token in sys.argv[6:]]
unknown = set()  # chains whose last rotation got a 500  # each: every token it held, oldest first
LIMIT = 10.0  # seconds; the server's request deadline is 30 s, a hang would exceed this
results = []
lock = threading.Lock()
start = time.monotonic()


def worker():
    while time.monotonic() - start < seconds:
        began = time.monotonic() - start
        # "no answer (…)" for a hang or a dropped connection
        status, _, _ = attempt("POST", base + "/passkey/challenge", body={"client_id": client_id}, timeout=LIMIT)
        with lock:
            results.append((began, time.monotonic() - start - began, status))
        time.sleep(0.01)


def post(path, fields):
    """(status, answer) of a form-encoded POST; the status says "no answer (…)" when none came."""
    status, _, answer = attempt("POST", base + path, form=fields, timeout=LIMIT)
    return status, answer


def rotate(chain):
    """Rotates the chain's newest token until the time is up; a 503 is retried with the same token."""
    while time.monotonic() - start < seconds:
        began = time.monotonic() - start
        status, body = post("/oauth/token", {
            "grant_type": "refresh_token", "client_id": client_id, "refresh_token": chain[-1]})
        with lock:
            results.append((began, time.monotonic() - start - began, status))
        if status == 200:
            chain.append(body["refresh_token"])
        elif status != 503:
            if status == 500:
                unknown.add(id(chain))
            return
        time.sleep(0.02)


seen = {}


def watch():
    """Notes when the caller's `down` and `up` files appear, on this script's clock."""
    while time.monotonic() - start < seconds + 30 and len(seen) < 2:
        for name in ("down", "up"):
            if name not in seen and os.path.exists(os.path.join(markers, name)):
                seen[name] = time.monotonic() - start
        time.sleep(0.005)


watcher = threading.Thread(target=watch)
watcher.start()
threads = [threading.Thread(target=worker) for _ in range(8)]
threads += [threading.Thread(target=rotate, args=(chain,)) for chain in chains]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
watcher.join()
if len(seen) < 2:
    print(f"postgres_faults: FAIL the database was not stopped and started in time ({seen})")
    sys.exit(1)
# The stop began a little before `down` appeared; the server answers 200 once a connection succeeds after `up`.
outage_start, outage_end = seen["down"] - 0.5, seen["up"]
print(f"postgres_faults: database down from {outage_start:.1f} s to {outage_end:.1f} s")

statuses = {}
for _, _, status in results:
    statuses[status] = statuses.get(status, 0) + 1
print(f"postgres_faults: {len(results)} requests, answers {statuses}")
# For the caller's /metrics check: how many requests were refused (each may cost one failed connection attempt).
with open(os.path.join(markers, "refused"), "w") as refused:
    refused.write(str(statuses.get(503, 0)))
with open(os.path.join(markers, "outage_seconds"), "w") as outage:
    outage.write(str(int(outage_end - outage_start) + 1))
failures = []
def tolerated(r):
    """A 500 at the instant of a crash: a COMMIT in flight, outcome unknown."""
    return mode == "immediate" and r[2] == 500 and outage_start <= r[0] <= outage_start + 1.5


bad = [r for r in results if r[2] not in (200, 503) and not tolerated(r)]
if any(tolerated(r) for r in results):
    print(f"postgres_faults: {sum(tolerated(r) for r in results)} answers 500 for a COMMIT in flight at the kill")
# For the caller's /metrics check: each of those 500s is a COMMIT whose outcome stayed unknown.
with open(os.path.join(markers, "unknown"), "w") as answered_unknown:
    answered_unknown.write(str(sum(tolerated(r) for r in results)))
if bad:
    failures.append(f"{len(bad)} answers other than 200/503, first: {bad[:3]}")
slow = [r for r in results if r[1] > LIMIT - 0.5]
if slow:
    failures.append(f"{len(slow)} requests took over {LIMIT - 0.5} s")
if not any(r[2] == 503 and outage_start <= r[0] <= outage_end + 1 for r in results):
    failures.append("no 503 during the outage: was the database stopped?")
after = [r for r in results if r[0] >= outage_end + 2]
if not after or any(r[2] != 200 for r in after):
    failures.append(f"after recovery: {len(after)} requests, not all 200: {[r for r in after if r[2] != 200][:3]}")
before = [r for r in results if r[0] < outage_start - 1]  # margin: this clock starts a little after the script's
if not before or any(r[2] != 200 for r in before):
    failures.append("before the outage not every request got 200")
for index, chain in enumerate(chains):
    status, _ = post("/oauth/token", {
        "grant_type": "refresh_token", "client_id": client_id, "refresh_token": chain[-1]})
    if id(chain) in unknown:
        pass  # its newest token's rotation outcome is unknown: either answer is right
    elif status != 200:
        failures.append(f"chain {index}: its newest token (after {len(chain) - 1} rotations) got {status}, not 200")
    for old in chain[:-1]:
        status, _ = post("/oauth/token", {
            "grant_type": "refresh_token", "client_id": client_id, "refresh_token": old})
        if status == 200:
            failures.append(f"chain {index}: a rotated token was accepted again (a lost write)")
            break
if chains:
    print(f"postgres_faults: {len(chains)} refresh chains, {sum(len(c) - 1 for c in chains)} rotations acknowledged")
for failure in failures:
    print(f"postgres_faults: FAIL {failure}")
if not failures:
    print("postgres_faults: ok   503 while PostgreSQL was stopped, 200 again after it restarted, no 500, no hang,"
          " no acknowledged refresh rotation lost")
sys.exit(1 if failures else 0)
