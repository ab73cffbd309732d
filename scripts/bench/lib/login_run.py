"""One measured login run's JSON line (scripts/bench/lib/common.sh, bench_login_run): the load generator's result
with the server's CPU seconds around the run and its mean time per /passkey and /oauth route from /metrics.

Usage: login_run.py LOADGEN_JSON CPU_BEFORE CPU_AFTER METRICS_BEFORE METRICS_AFTER
"""
import json
import re
import sys

result = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
result["server_cpu_seconds"] = round(float(sys.argv[3]) - float(sys.argv[2]), 2)


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
