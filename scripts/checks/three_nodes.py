#!/usr/bin/env python3
"""Three passkeyd nodes on one PostgreSQL, driven through their HTTP APIs by the independent client's pieces
(scripts/checks/independent_client.py: soft-webauthn and PyJWT, no code shared with passkeyd).
scripts/checks/three_nodes.sh starts the database and the nodes; this script starts nothing but `passkeyd keys
rotate`. Usage:

    three_nodes.py NODE1 NODE2 NODE3 --client-id ID --passkeyd BINARY --data-dir DIR [--origin http://localhost:8080]

with PASSKEYD_DATABASE_URL (and the nodes' other PASSKEYD_* settings) in the environment, as the nodes have them,
so that the rotation runs with the nodes' configuration. Checks, in order:

- sign-up on node 1, login challenge on node 2, token on node 3: 200, the same user, and the tokens verify
  against node 1's and node 3's JWKS; every node publishes the same key;
- a refresh token rotated on node 2, its successor on node 3 (200), the spent one again on node 1 (reuse, refused)
  and then the newest on node 2 (its family revoked by that reuse, refused);
- `passkeyd keys rotate` against the database; within TokenService.onDemandReloadInterval (1 s) of it, plus 5 s for
  the polling and a slow machine, every node publishes the new kid beside the old one (a JWKS request reads the
  keys again once the node's copy is a second old); then, before the new key signs (40 s after the rotation):
- one refresh token presented 16 times at once over the three nodes (each thread sends all but the last byte of
  its request, then all send that byte when a barrier releases them): exactly one 200 and 15 refusals (403
  invalid_grant); the losers were presentations of a spent token, so their reuse revoked the family and the
  winner's successor is refused on every node (RFC 9700 §4.14.2);
- one login auth_session presented 12 times at once over the three nodes: exactly one 200, 11 refusals;
- a login on node 2 after that, still before the new key signs, is signed with the old kid and verifies with node
  3's JWKS, and the tokens from before the rotation still verify with node 3's JWKS.

Prints ok/FAIL for each check; exits 0 when every check passes, 1 otherwise.
"""
import argparse
import collections
import http.client
import json
import os
import re
import subprocess
import threading
import time
import urllib.parse

import jwt
import soft_webauthn
from jwt import PyJWKClient

from independent_client import WEBAUTHN_GRANT, assert_with, login_options, sign_up, verify_tokens
from passkeyd_http import Client, check, get_json, refused, request, run
JWKS_FRESHNESS = 1  # TokenService.onDemandReloadInterval: how old a node's JWKS may be
RELOAD_GRACE = 5  # the JWKS polling period and a slow, shared machine
KEY_PUBLICATION_DELAY = 40  # TokenService.keyPublicationDelay: a rotated key signs this long after the rotation
RACE_TIMEOUT = 60  # per request of a race: 16 at once on a debug build and 2 shared cores


def jwks(node):
    """A PyJWKClient that fetches `node`'s JWKS on every use (no cache), to see what the node publishes now."""
    return PyJWKClient(node.base + "/.well-known/jwks.json", cache_jwk_set=False)


def kids(node):
    status, _, answer = request("GET", node.base + "/.well-known/jwks.json")
    if status != 200 or not isinstance(answer, dict):
        return set()
    return {key.get("kid") for key in answer.get("keys", [])}


def race(nodes, count, fields):
    """Presents the same token request `count` times at once, request i to nodes[i % 3], and returns
    [(node number, status, answer)]. Each thread opens its connection and sends all of its request but the last
    byte, then waits at a barrier and sends that byte: every node holds every request when the barrier opens, and
    they are processed together rather than in the order Python's threads happen to send them."""
    barrier = threading.Barrier(count)
    results = [None] * count

    def present(i):
        node = nodes[i % len(nodes)]
        body = json.dumps(dict(fields, client_id=node.client_id)).encode()
        address = urllib.parse.urlsplit(node.base)
        connection = http.client.HTTPConnection(address.hostname, address.port, timeout=RACE_TIMEOUT)
        try:
            connection.putrequest("POST", "/oauth/token")
            connection.putheader("Content-Type", "application/json")
            connection.putheader("Content-Length", str(len(body)))
            connection.endheaders(body[:-1])
            barrier.wait(timeout=RACE_TIMEOUT)
            connection.send(body[-1:])
            response = connection.getresponse()
            raw = response.read()
            status, answer = response.status, json.loads(raw) if raw else None
        except Exception as error:  # no answer is a result to judge, not a crash
            status, answer = f"no answer ({type(error).__name__})", None
        finally:
            connection.close()
        results[i] = (i % len(nodes) + 1, status, answer)

    threads = [threading.Thread(target=present, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=2 * RACE_TIMEOUT)
    return [result or (0, "thread did not finish", None) for result in results]


def judge_race(what, results):
    """Exactly one 200, every other presentation refused with 403 invalid_grant. Returns the winner's answer."""
    winners = [answer for _, status, answer in results if status == 200]
    losers = [(node, status, answer) for node, status, answer in results if status != 200]
    tally = collections.Counter(f"node {node}: {status}" for node, status, _ in results)
    check(f"{what}: exactly one 200 of {len(results)}", len(winners) == 1, f"{sorted(tally.items())}")
    odd = [(node, status, answer) for node, status, answer in losers if not refused(status, answer)]
    check(f"{what}: the {len(losers)} others 403 invalid_grant", not odd, f"{odd[:3]}")
    return winners[0] if len(winners) == 1 else None


def rotate_keys(arguments):
    """`passkeyd keys rotate` with the nodes' configuration; returns the new kid, or None."""
    try:
        done = subprocess.run(
            [arguments.passkeyd, "keys", "rotate", "--config", "Config/passkeyd.json", "--data-dir",
             os.path.join(arguments.data_dir, "rotate")], capture_output=True, text=True, timeout=60)
    except Exception as error:
        check("passkeyd keys rotate runs", False, repr(error))
        return None
    # "new signing keys <ES256 kid>, <RS256 kid> (ES256, RS256); ...": access tokens are RS256
    # (`tokens.access_token_signing_alg`'s default, as Auth0's), so the RS256 kid is the one that will sign them.
    found = re.search(r"new signing keys (\S+), (\S+) \(ES256, RS256\);", done.stdout)
    check("passkeyd keys rotate against the database: a new kid of each algorithm",
          done.returncode == 0 and found is not None, f"exit {done.returncode}: {done.stdout} {done.stderr}")
    return found.group(2) if found else None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("nodes", nargs=3)
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--passkeyd", required=True)
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--origin", default="http://localhost:8080")
    arguments = parser.parse_args()
    nodes = [Client(base, arguments.client_id) for base in arguments.nodes]
    client_id = arguments.client_id
    discovery = get_json(nodes[0].base + "/.well-known/openid-configuration")
    issuer = discovery["issuer"]
    device = soft_webauthn.SoftWebauthnDevice()

    status, _, signup = sign_up(nodes[0], device, arguments.origin, "three-nodes@example.com")
    check("sign-up on node 1: 200 with tokens", status == 200 and "refresh_token" in (signup or {}),
          f"{status} {signup}")
    if status != 200:
        return
    options, session = login_options(nodes[1])
    status, _, login = nodes[2].token(
        {"grant_type": WEBAUTHN_GRANT, "auth_session": session,
         "authn_response": assert_with(device, options, arguments.origin), "scope": "openid email offline_access"})
    check("login challenge from node 2, token from node 3: 200", status == 200, f"{status} {login}")
    if status != 200:
        return
    _, signed_up = verify_tokens(signup, jwks(nodes[0]), issuer, client_id, "sign-up tokens, node 1's JWKS")
    _, identity = verify_tokens(login, jwks(nodes[0]), issuer, client_id, "node 3's login tokens, node 1's JWKS")
    verify_tokens(login, jwks(nodes[2]), issuer, client_id, "node 3's login tokens, node 3's JWKS")
    check("the login on nodes 2 and 3 is the user signed up on node 1",
          signed_up is not None and identity is not None and signed_up["sub"] == identity["sub"])
    old_kid = jwt.get_unverified_header(login["access_token"]).get("kid")
    published = [kids(node) for node in nodes]
    # Each node publishes the same keys (one per algorithm: ES256 and RS256), among them the one that signed.
    check("every node publishes the same keys, among them the one that signed",
          all(keys == published[0] for keys in published) and old_kid in published[0], f"{old_kid} {published}")

    # Rotation and reuse across nodes, one presentation at a time.
    refresh = {"grant_type": "refresh_token"}
    status, _, first = nodes[1].token(dict(refresh, refresh_token=signup["refresh_token"]))
    check("sign-up's refresh token on node 2: 200", status == 200, f"{status} {first}")
    status, _, second = nodes[2].token(dict(refresh, refresh_token=(first or {}).get("refresh_token", "")))
    check("its successor on node 3: 200", status == 200, f"{status} {second}")
    status, _, answer = nodes[0].token(dict(refresh, refresh_token=(first or {}).get("refresh_token", "")))
    check("that spent successor again on node 1: 403 invalid_grant (reuse)", refused(status, answer),
          f"{status} {answer}")
    status, _, answer = nodes[1].token(dict(refresh, refresh_token=(second or {}).get("refresh_token", "")))
    check("the newest token on node 2: 403 invalid_grant (node 1's reuse revoked the family)",
          refused(status, answer), f"{status} {answer}")

    new_kid = rotate_keys(arguments)
    rotated_at = time.monotonic()
    if new_kid is not None:
        deadline = rotated_at + JWKS_FRESHNESS + RELOAD_GRACE
        seen = {}
        while len(seen) < len(nodes) and time.monotonic() < deadline:
            for number, node in enumerate(nodes, 1):
                if number not in seen and new_kid in kids(node):
                    seen[number] = time.monotonic() - rotated_at
            time.sleep(0.2)
        for number, node in enumerate(nodes, 1):
            now = kids(node)
            check(f"node {number} publishes the new kid within {JWKS_FRESHNESS} s (+{RELOAD_GRACE}) of the rotation"
                  f"{f' (after {seen[number]:.1f} s)' if number in seen else ''}, the old kid still published",
                  number in seen and {new_kid, old_kid} <= now, f"new {new_kid}, old {old_kid}, published {now}")

    # The races run while the nodes still sign with the old key (the new one signs from KEY_PUBLICATION_DELAY).
    token = login["refresh_token"]
    winner = judge_race("one refresh token, 16 presentations at once over 3 nodes",
                        race(nodes, 16, dict(refresh, refresh_token=token)))
    if winner is not None:
        successor = winner.get("refresh_token", "")
        answers = [node.token(dict(refresh, refresh_token=successor)) for node in nodes]
        check("the winner's successor is refused on every node (the 15 losers' reuse revoked the family)",
              all(refused(status, answer) for status, _, answer in answers), f"{[a[0] for a in answers]}")
    options, session = login_options(nodes[1])
    assertion = assert_with(device, options, arguments.origin)
    judge_race("one login auth_session, 12 presentations at once over 3 nodes",
               race(nodes, 12, {"grant_type": WEBAUTHN_GRANT, "auth_session": session, "authn_response": assertion}))

    if new_kid is None:
        return
    options, session = login_options(nodes[1])
    status, _, after = nodes[1].token(
        {"grant_type": WEBAUTHN_GRANT, "auth_session": session,
         "authn_response": assert_with(device, options, arguments.origin), "scope": "openid"})
    check("a login on node 2 after the rotation: 200", status == 200, f"{status} {after}")
    if status != 200:
        return
    header = jwt.get_unverified_header(after["access_token"])
    # The new key signs only KEY_PUBLICATION_DELAY after the rotation (TokenService.keyPublicationDelay), once
    # every node publishes it; before that every node still signs with the old key.
    elapsed = time.monotonic() - rotated_at
    if elapsed < KEY_PUBLICATION_DELAY - 1:
        check(f"node 2 still signs with the old kid {elapsed:.0f} s after the rotation (the new one signs from "
              f"{KEY_PUBLICATION_DELAY} s)", header.get("kid") == old_kid, f"{header} old {old_kid}")
    else:
        check("node 2 signs with a kid every node publishes", all(header.get("kid") in kids(node) for node in nodes),
              f"{header}")
    verify_tokens(after, jwks(nodes[2]), issuer, client_id, "node 2's tokens after the rotation, node 3's JWKS")
    verify_tokens(login, jwks(nodes[2]), issuer, client_id, "the tokens from before the rotation, node 3's JWKS")


if __name__ == "__main__":
    run("three_nodes", main)
