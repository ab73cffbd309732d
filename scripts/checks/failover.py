#!/usr/bin/env python3
"""Load and verdict of the failover check (scripts/checks/failover.sh starts the pg_auto_failover formation and the
two nodes, and makes the faults). Usage:

    failover.py NODE1 NODE2 --client-id ID --markers DIR --timeout SECONDS --logs NODE1_LOG NODE2_LOG

A mixed load over both nodes, each operation's requests alternating between them: sign-ups, logins of users signed
up beforehand, and refresh-token chains rotating (a chain that ends is replaced by a new user's), soft-webauthn as
the authenticator (independent_client.py's pieces). A refused request is sent again as it is 0.1 s later, as
docs/api.md allows, which tells what the refused attempt did: a 503 must have written nothing, so the retry
succeeds; after a 500 (outcome unknown) a 200 says nothing had been written (or, for a refresh, gives the same
rotation's result), and a 403 invalid_grant that the attempt had written something that committed: the rotation
(the retry is reuse, and revokes the family), the login or the sign-up, or the spending of the auth session.

The caller writes files into DIR, each holding the time (seconds since the epoch) of its event: `round1.killed`,
`round1.promoted` (the monitor says the old standby is primary), `round2.killed`, `round2.promoted`, and `stop`
(the load ends). This script writes `loaded` once the users are signed up and the load runs.

At the end: every acknowledged sign-up logs in, every acknowledged login's refresh token works, every chain's newest
token works once and a token spent before it is refused as reuse (revoking the family: the newest is then refused
too). Per round it prints the promotion time, the write outage (from the first refused write's answer to the first
accepted write's), the answers and when each node's /readyz answered 200 again; and every 500 with the reason its
node logged (each request carries an X-Request-Id of its own). Fails (exit 1) on a lost acknowledged write; a 500
or 503 for a request that had written something; a request without an answer within TIMEOUT (a hang, or a dropped
connection); an answer other than 200, 503 or 500 (or 403 on a retry); and a node that does not recover: /readyz not
200 again, a write refused in a round's last two seconds (the caller waits for both nodes' /readyz 200, then lets
the load run a few seconds before the next fault or the end), or a request still refused 20 s after the load. A
500 whose retry succeeded is reported, not failed (docs/api.md documents it for a COMMIT whose outcome is unknown;
the issue wants none)."""
import argparse
import json
import os
import random
import threading
import time

import soft_webauthn

from independent_client import WEBAUTHN_GRANT, assertion_json, registration_json
from passkeyd_http import attempt, refused, unb64url

RETRY_DELAY = 0.1  # seconds between a refused request and its retry
RECOVERED_TAIL = 2.0  # seconds at the end of a round in which every write must be accepted
ORIGIN = "http://localhost:8080"

arguments = None
lock = threading.Lock()
results = []  # (began, ended, node index, what, status): every answer (or its absence)
faults = []  # what fails the run
notes = []  # what is reported without failing the run
errors = []  # (request id, node index, what, began) of every 500
sent = 0  # requests sent, for their ids
last = threading.local()  # last.request: (request id, node index, began, ended) of this thread's last request
readiness = []  # (time, node index, status) of /readyz
acknowledged = {"sign-ups": [], "logins": [], "chains": []}


def stopped():
    return os.path.exists(os.path.join(arguments.markers, "stop"))


def marker(name):
    try:
        with open(os.path.join(arguments.markers, name)) as file:
            return float(file.read().strip())
    except (OSError, ValueError):
        return None


def send(node, what, path, body=None, form=None):
    """One request to node (0 or 1), with an X-Request-Id of its own (the node logs it); records it and returns
    (status, answer)."""
    global sent
    with lock:
        sent += 1
        request_id = f"failover-{sent}"
    began = time.time()
    status, _, answer = attempt("POST", arguments.nodes[node] + path, body=body, form=form,
                                headers={"X-Request-Id": request_id}, timeout=arguments.timeout)
    ended = time.time()
    last.request = (request_id, node, began, ended)
    with lock:
        results.append((began, ended, node, what, status))
        if status == 500:
            errors.append((request_id, node, what, began))
        if not isinstance(status, int):
            faults.append(f"{what} on node {node + 1}: {status} after {ended - began:.1f} s (a hang or a dropped "
                          f"connection; the client waits {arguments.timeout} s)")
    return status, answer


def until_answered(node, what, path, body=None, form=None):
    """Sends the same request again while it is refused with 503 or 500; returns (status, answer, the first refusal's
    status or None). Gives up (None status) 20 s after the load stopped."""
    first = None
    while True:
        status, answer = send(node, what, path, body=body, form=form)
        if status not in (503, 500):
            return status, answer, first
        first = first if first == 500 else status
        give_up = marker("stop")
        if give_up is not None and time.time() > give_up + 20:
            with lock:
                faults.append(f"{what} still refused ({status}) 20 s after the load ended: not recovered")
            return None, answer, first
        time.sleep(RETRY_DELAY)
        node = 1 - node  # as behind a load balancer, the retry may reach the other node


def committed_although(first, what, consequence):
    """A retry refused as spent: the refused attempt (503 or 500) had written something that committed."""
    with lock:
        faults.append(f"{what} answered {first} had committed {consequence}")


def options_for(node, path, body):
    """A register or challenge request until it is answered 200; returns (node, answer) or (node, None)."""
    status, answer, _ = until_answered(node, path.strip("/"), path, body=body)
    if status != 200:
        if status is not None:
            with lock:
                faults.append(f"{path} on node {node + 1}: {status} {answer}")
        return node, None
    return node, answer


def sign_up(node, email):
    """Signs a new user up (register on node, the token on the other); returns (device, tokens) or None."""
    device = soft_webauthn.SoftWebauthnDevice()
    node, answer = options_for(node, "/passkey/register", {"client_id": arguments.client_id,
                                                          "user_profile": {"email": email, "name": "Failover"}})
    if answer is None:
        return None
    options = answer["authn_params_public_key"]
    credential = device.create({"publicKey": {
        "rp": options["rp"], "user": dict(options["user"], id=unb64url(options["user"]["id"])),
        "challenge": unb64url(options["challenge"]), "pubKeyCredParams": options["pubKeyCredParams"]}}, ORIGIN)
    grant = {"grant_type": WEBAUTHN_GRANT, "client_id": arguments.client_id, "auth_session": answer["auth_session"],
             "authn_response": registration_json(credential), "scope": "openid email offline_access"}
    status, tokens, first = until_answered(1 - node, "sign-up", "/oauth/token", body=grant)
    if status == 200:
        return device, tokens
    if refused(status, tokens) and first is not None:
        # Spent by the refused attempt: had the sign-up committed? The device logs in if it had.
        with lock:
            acknowledged.setdefault("sign-ups answered 403 on a retry", []).append((device, first))
    elif status is not None:
        with lock:
            faults.append(f"sign-up {email}: {status} {tokens}")
    return None


def log_in(node, device, what="login"):
    """A login with device (challenge on node, token on the other); returns (status, tokens, first refusal)."""
    node, answer = options_for(node, "/passkey/challenge", {"client_id": arguments.client_id})
    if answer is None:
        return None, None, None
    options = answer["authn_params_public_key"]
    assertion = assertion_json(device.get(
        {"publicKey": {"rpId": options["rpId"], "challenge": unb64url(options["challenge"])}}, ORIGIN))
    grant = {"grant_type": WEBAUTHN_GRANT, "client_id": arguments.client_id, "auth_session": answer["auth_session"],
             "authn_response": assertion, "scope": "openid offline_access"}
    return until_answered(1 - node, what, "/oauth/token", body=grant)


def refresh(node, token, what="rotation"):
    return until_answered(node, what, "/oauth/token", form={
        "grant_type": "refresh_token", "client_id": arguments.client_id, "refresh_token": token})


def signer(number):
    """Signs users up until the load stops; each acknowledged one is checked at the end."""
    count = 0
    while not stopped():
        count += 1
        done = sign_up(count % 2, f"failover-{number}-{count}-{random.getrandbits(32)}@example.com")
        if done is not None:
            with lock:
                acknowledged["sign-ups"].append((done[0], last.request))
        time.sleep(0.02)


def logger(number, devices):
    """Logs users in (one at a time per device) until the load stops; keeps each acknowledged login's refresh token."""
    count = 0
    while not stopped():
        count += 1
        status, tokens, first = log_in(count % 2, devices[count % len(devices)])
        if status == 200:
            with lock:
                acknowledged["logins"].append((tokens["refresh_token"], last.request))
        elif refused(status, tokens) and first is not None:
            detail = tokens.get("error_description", "") if isinstance(tokens, dict) else ""
            committed_although(first, "a login", f"(the login, or the refusal's spending of its auth session): its "
                               f"retry got 403 ({detail}), the client must start over")
        elif status is not None:
            with lock:
                faults.append(f"login (thread {number}): {status} {tokens}")
        time.sleep(0.02)


def rotator(chain):
    """Rotates the chain's newest token, alternating nodes, until the load stops. chain: [token, clean] pairs,
    clean False when that token's rotation (the one that minted it) was refused once (its outcome then unknown).
    A chain that ends (its family revoked) is replaced by a new user's, so that the load goes on."""
    count = 0
    while not stopped():
        count += 1
        status, answer, first = refresh(count % 2, chain[-1][0])
        if status == 200:
            with lock:
                chain.append([answer["refresh_token"], first is None, last.request])
            time.sleep(0.02)
            continue
        if refused(status, answer) and first is not None:
            committed_although(first, f"a refresh rotation (rotation {len(chain)} of its chain)",
                               "(the retry was taken for reuse: the family revoked, the user logged out)")
        elif status is not None:
            with lock:
                faults.append(f"the newest token of a chain was refused ({status} {answer}): an acknowledged "
                              "rotation lost, or its family revoked")
        chain.insert(0, None)  # its family is revoked (or the load ended): nothing left to verify
        done = None if stopped() else sign_up(count % 2, f"failover-chain-{count}-{random.getrandbits(32)}@example.com")
        if done is None:
            return
        chain = [[done[1]["refresh_token"], True, last.request]]
        with lock:
            acknowledged["chains"].append(chain)


def watch_readiness():
    while not stopped():
        for node in (0, 1):
            status, _, _ = attempt("GET", arguments.nodes[node] + "/readyz", timeout=arguments.timeout)
            with lock:
                readiness.append((time.time(), node, status))
        time.sleep(0.1)


def seed(count):
    """Users signed up (and their refresh chains) before any fault."""
    devices, chains = [], []
    for index in range(count):
        done = sign_up(index % 2, f"failover-seed-{index}-{random.getrandbits(32)}@example.com")
        if done is None:
            raise SystemExit(f"failover: FAIL could not sign up before the faults: {faults}")
        devices.append(done[0])
        chains.append([[done[1]["refresh_token"], True, last.request]])
    return devices, chains


def judge_round(number, killed, promoted, ends):
    """Prints the round's figures; returns its write outage in seconds (None when no write was refused)."""
    window = [r for r in results if killed <= r[1] < ends]
    refusals = sorted(r[1] for r in window if r[4] != 200)
    answers = {}
    for r in window:
        answers[r[4]] = answers.get(r[4], 0) + 1
    outage = None
    if refusals:
        accepted = sorted(r[1] for r in window if r[4] == 200 and r[0] >= refusals[0])
        outage = (accepted[0] - refusals[0]) if accepted else None
    print(f"failover: round {number}: promoted {promoted - killed:.1f} s after the kill; writes refused for "
          f"{'no time' if not refusals else f'{outage:.1f} s' if outage is not None else 'ever'}; answers {answers}")
    for node in (0, 1):
        samples = [(t, s) for t, n, s in readiness if n == node and killed <= t < ends]
        bad = [t for t, s in samples if s != 200]
        good_after = [t for t, s in samples if s == 200 and (not bad or t > bad[-1])]
        if not samples or not good_after or samples[-1][1] != 200:
            faults.append(f"round {number}: node {node + 1}'s /readyz is not 200 again ({samples[-3:]})")
        elif bad:
            print(f"failover: round {number}: node {node + 1}'s /readyz 200 again "
                  f"{good_after[0] - promoted:.1f} s after the promotion")
    # Recovered: in the round's last seconds (the caller waits for both nodes' /readyz first), every write to each
    # node is accepted, and there are some.
    tail = [r for r in window if r[0] >= ends - RECOVERED_TAIL]
    for node in (0, 1):
        mine = [r for r in tail if r[2] == node]
        bad = [r for r in mine if r[4] in (500, 503)]
        if bad or not any(r[4] == 200 for r in mine):
            faults.append(f"round {number}: node {node + 1} not recovered: in the round's last {RECOVERED_TAIL:.0f} s "
                          f"{len(bad)} of {len(mine)} writes refused, first {bad[:1]}")
    if outage is None and refusals:
        faults.append(f"round {number}: no write accepted after the first refusal")
    return outage


def verify():
    """Every acknowledged write is there: sign-ups log in, logins' refresh tokens work, chains hold."""
    lost = 0
    for index, (device, ack) in enumerate(acknowledged["sign-ups"]):
        status, tokens, _ = log_in(index % 2, device, "verification login")
        if status != 200:
            lost += 1
            faults.append(f"an acknowledged sign-up cannot log in ({status} {tokens}): a lost write; "
                          f"{acknowledged_by(ack)}")
    for device, first in acknowledged.get("sign-ups answered 403 on a retry", []):
        status, _, _ = log_in(0, device, "verification login")
        if status == 200:
            committed_although(first, "a sign-up", "(the user exists), yet its retry got 403")
        else:
            committed_although(first, "a sign-up", "its auth session's spending, not the sign-up: the retry got 403, "
                               "the client must start over (the session is spent first, in a write of its own)")
    for index, (token, ack) in enumerate(acknowledged["logins"]):
        status, answer, _ = refresh(index % 2, token, "verification refresh")
        if status != 200:
            lost += 1
            faults.append(f"an acknowledged login's refresh token is refused ({status} {answer}): a lost write; "
                          f"{acknowledged_by(ack)}")
    rotations = 0
    ended = [chain for chain in acknowledged["chains"] if chain[0] is None]
    if ended:
        notes.append(f"{len(ended)} refresh chains ended early (reported above; a new user's chain replaced each), "
                     "not verified")
    for index, chain in enumerate(acknowledged["chains"]):
        if chain[0] is None:
            continue
        rotations += len(chain) - 1
        status, answer, first = refresh(index % 2, chain[-1][0], "verification refresh")
        if status != 200:
            lost += 1
            faults.append(f"chain {index}: its newest token (after {len(chain) - 1} rotations) got {status}: "
                          f"an acknowledged rotation lost; {acknowledged_by(chain[-1][2])}")
            continue
        chain.append([answer["refresh_token"], first is None, last.request])
        # A spent token whose successor has been presented since (so no retry of a lost answer, docs/api.md's retry
        # window), rotated with a 200 at once: presenting it again is reuse, which revokes the family.
        spent = next((chain[i][0] for i in range(len(chain) - 3, -1, -1) if chain[i + 1][1]), None)
        if spent is None:
            notes.append(f"chain {index}: every rotation was retried, no spent token to present again")
            continue
        status, answer, _ = refresh(1 - index % 2, spent, "verification reuse")
        newest, _, _ = refresh(index % 2, chain[-1][0], "verification after reuse")
        if not refused(status, answer) or newest != 403:
            lost += 1
            faults.append(f"chain {index}: a spent token got {status}, then the newest {newest} (403 and 403 "
                          "expected: reuse detected, family revoked)")
    print(f"failover: verified {len(acknowledged['sign-ups'])} acknowledged sign-ups, "
          f"{len(acknowledged['logins'])} acknowledged logins, {len(acknowledged['chains'])} refresh chains with "
          f"{rotations} acknowledged rotations; lost: {lost}")
    return lost


def logged():
    """What the nodes logged about each request of this script, beside the access log: {request id: [entries]}."""
    entries = {}
    for path in arguments.logs:
        with open(path, errors="replace") as log:
            for line in log:
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                if entry.get("msg") != "request" and str(entry.get("request_id", "")).startswith("failover-"):
                    entries.setdefault(entry["request_id"], []).append(entry)
    return entries


def acknowledged_by(ack):
    """Which request acknowledged a write, when (against the faults) and what its node logged about it."""
    request_id, node, began, ended = ack
    when = ", ".join(f"{ended - at:+.1f} s from {name}" for name, at in
                     ((name, marker(name)) for name in ("round1.killed", "round2.killed")) if at is not None)
    said = "; ".join(f"{e.get('msg')} {e.get('reason', '')[:160]}" for e in logged().get(request_id, []))
    return (f"acknowledged by {request_id} on node {node + 1} after {ended - began:.1f} s ({when})"
            f"{', logged: ' + said if said else ''}")


def explain(errors_seen):
    """Each 500 with what its node logged for that request (the warning that says why)."""
    entries = logged()
    for request_id, node, what, began in errors_seen:
        when = time.strftime("%H:%M:%S", time.localtime(began))
        for entry in entries.get(request_id, [{"msg": "(nothing logged)"}]):
            reason = entry.get("reason", "").replace("\n", " ")
            print(f"failover: 500 for {what} on node {node + 1} (sent {when}, {request_id}), logged: "
                  f"{entry.get('code') or entry.get('msg')}: {reason[:200]}")


def main():
    global arguments
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("nodes", nargs=2)
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--markers", required=True)
    parser.add_argument("--timeout", type=float, required=True)
    parser.add_argument("--logs", nargs=2, required=True, help="the nodes' logs, for the reasons of 500s")
    arguments = parser.parse_args()
    arguments.nodes = [node.rstrip("/") for node in arguments.nodes]
    devices, chains = seed(10)
    acknowledged["chains"] = chains[4:]
    threads = [threading.Thread(target=signer, args=(n,)) for n in range(2)]
    threads += [threading.Thread(target=logger, args=(n, devices[2 * n:2 * n + 2])) for n in range(2)]
    threads += [threading.Thread(target=rotator, args=(chain,)) for chain in acknowledged["chains"]]
    threads.append(threading.Thread(target=watch_readiness))
    for thread in threads:
        thread.start()
    with open(os.path.join(arguments.markers, "loaded"), "w") as file:
        file.write(str(time.time()))
    for thread in threads:
        thread.join()
    times = {name: marker(name) for name in
             ("round1.killed", "round1.promoted", "round2.killed", "round2.promoted", "stop")}
    missing = [name for name, value in times.items() if value is None]
    outages = []
    if missing:
        faults.append(f"the faults did not all happen (no {', '.join(missing)})")
    else:
        outages.append(judge_round(1, times["round1.killed"], times["round1.promoted"], times["round2.killed"]))
        outages.append(judge_round(2, times["round2.killed"], times["round2.promoted"], times["stop"]))
    lost = verify()
    print(f"failover: {len(results)} requests; {len(errors)} answered 500")
    explain(errors)
    for note in notes:
        print(f"failover: note {note}")
    odd = [r for r in results if isinstance(r[4], int) and r[4] not in (200, 503, 500, 403)]
    for began, _, node, what, status in odd[:5]:
        faults.append(f"{what} on node {node + 1} answered {status}")
    shown = ", ".join("-" if o is None else f"{o:.1f}" for o in outages)
    print(f"failover: summary outage_s={shown} answers_500={len(errors)} lost={lost} faults={len(faults)}")
    for fault in faults:
        print(f"failover: FAIL {fault}")
    if not faults:
        print("failover: ok   two failovers under load: nothing acknowledged lost, no 500 or 503 for a committed "
              "write, no hang, both nodes recovered without a restart")
    raise SystemExit(1 if faults else 0)


if __name__ == "__main__":
    main()
