"""One measured login run's JSON line (scripts/bench/lib/common.sh, bench_login_run): the load generator's result
with the ID token algorithm of its client, the server's CPU seconds around the run, its CPU and context switches per
login over the measured window, and its mean time per /passkey and /oauth route from /metrics.

Usage: login_run.py LOADGEN_JSON CPU_BEFORE CPU_AFTER METRICS_BEFORE METRICS_AFTER [ID_TOKEN_ALG]
"""
import json
import re
import sys

result = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
result["server_cpu_seconds"] = round(float(sys.argv[3]) - float(sys.argv[2]), 2)
result["id_token_alg"] = sys.argv[6] if len(sys.argv) > 6 else "RS256"
# Per login over the measured window alone (the load generator's --server-pid samples, over the logins that ended in
# the window); without them (an older load generator), the CPU around the whole run over the measured logins.
completed = result.get("completed_in_window") or 0
if completed and "server_window_cpu_seconds" in result:
    result["server_cpu_us_per_login"] = round(result["server_window_cpu_seconds"] / completed * 1e6, 1)
    result["context_switches_per_login"] = round(result["server_window_context_switches"] / completed, 2)
else:
    result["server_cpu_us_per_login"] = round(result["server_cpu_seconds"] / max(1, result["logins"]) * 1e6, 1)
    result["context_switches_per_login"] = None


def sums(path):
    values = {}
    for line in open(path):
        match = re.match(r'passkeyd_http_request_duration_seconds_(sum|count)\{route="([^"]*)"[^}]*\} (\S+)', line)
        if match:
            values.setdefault(match.group(2), {})[match.group(1)] = float(match.group(3))
    return values


before, after = sums(sys.argv[4]), sums(sys.argv[5])
routes = {}
for route, value in after.items():
    count = value.get("count", 0) - before.get(route, {}).get("count", 0)
    total = value.get("sum", 0) - before.get(route, {}).get("sum", 0)
    if count > 0 and route.startswith(("/passkey", "/oauth")):
        routes[route] = round(total / count * 1e3, 3)
result["server_mean_ms_by_route"] = routes
print(json.dumps(result))
