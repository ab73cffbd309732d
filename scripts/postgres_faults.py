#!/usr/bin/env python3
"""Load for the PostgreSQL fault check: POST /passkey/challenge (one write each) from several threads for a fixed
time, then judge the answers. Usage: postgres_faults.py BASE_URL CLIENT_ID SECONDS OUTAGE_START OUTAGE_END

Passes when every answer is 200 or 503 (none 500, none unanswered or slower than the limit), some 503s fell in
the outage (the database really was gone), and every request started two seconds after the outage ended got 200
(the server reconnected by itself)."""
import json
import sys
import threading
import time
import urllib.error
import urllib.request

base, client_id, seconds, outage_start, outage_end = sys.argv[1], sys.argv[2], *map(float, sys.argv[3:6])
LIMIT = 10.0  # seconds; the server's request deadline is 30 s, a hang would exceed this
results = []
lock = threading.Lock()
start = time.monotonic()


def worker():
    body = json.dumps({"client_id": client_id}).encode()
    while time.monotonic() - start < seconds:
        began = time.monotonic() - start
        request = urllib.request.Request(
            base + "/passkey/challenge", data=body, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=LIMIT) as response:
                status = response.status
        except urllib.error.HTTPError as error:
            status = error.code
        except Exception as error:  # no answer: a hang or a dropped connection
            status = f"no answer ({type(error).__name__})"
        with lock:
            results.append((began, time.monotonic() - start - began, status))
        time.sleep(0.01)


threads = [threading.Thread(target=worker) for _ in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()

statuses = {}
for _, _, status in results:
    statuses[status] = statuses.get(status, 0) + 1
print(f"postgres_faults: {len(results)} requests, answers {statuses}")
failures = []
bad = [r for r in results if r[2] not in (200, 503)]
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
for failure in failures:
    print(f"postgres_faults: FAIL {failure}")
if not failures:
    print("postgres_faults: ok   503 while PostgreSQL was stopped, 200 again after it restarted, no 500, no hang")
sys.exit(1 if failures else 0)
