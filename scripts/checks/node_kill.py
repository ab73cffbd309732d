#!/usr/bin/env python3
"""Node-kill check: refresh-token chains rotate through node A until A is killed (`kill -9`, the caller creates
MARKER_DIR/killed afterwards); then, through node B on the same database, every token A acknowledged rotating
(answered 200 for) must be refused: nothing A acknowledged is lost. A chain's last token, in flight at the kill,
has an unknown outcome and is not judged. Usage: node_kill.py NODE_A NODE_B CLIENT_ID MARKER_DIR REFRESH_TOKEN…"""
import os
import sys
import threading

from passkeyd_http import attempt

node_a, node_b, client_id, markers = sys.argv[1:5]
chains = [[token] for token in sys.argv[5:]]


def refresh(base, token):
    """(status, answer) of a form-encoded refresh grant; the status says "no answer (…)" when none came."""
    status, _, answer = attempt("POST", base + "/oauth/token", form={
        "grant_type": "refresh_token", "client_id": client_id, "refresh_token": token})
    return status, answer


def rotate(chain):
    while not os.path.exists(os.path.join(markers, "killed")):
        status, body = refresh(node_a, chain[-1])
        if status != 200:
            return  # A is gone (or refused): this chain's last presentation has an unknown outcome
        chain.append(body["refresh_token"])


threads = [threading.Thread(target=rotate, args=(chain,)) for chain in chains]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join(timeout=60)
acknowledged = sum(len(chain) - 1 for chain in chains)
lost = 0
for chain in chains:
    for old in chain[:-1]:
        status, _ = refresh(node_b, old)
        if status == 200:
            lost += 1
            break
print(f"node_kill: {len(chains)} chains, {acknowledged} rotations acknowledged by node A before kill -9")
if acknowledged == 0:
    print("node_kill: FAIL no rotation happened before the kill")
    sys.exit(1)
if lost:
    print(f"node_kill: FAIL {lost} chains had a rotated token accepted again by node B (an acknowledged write lost)")
    sys.exit(1)
print("node_kill: ok   every rotation node A acknowledged before kill -9 holds on node B")
