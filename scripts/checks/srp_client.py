#!/usr/bin/env python3
"""Checks passkeyd's SRP-6a password fallback with PyPI `srp` 1.0.22 as the client: code that shares nothing with
passkeyd computes the verifier, A, M1 and checks M2.

`srp` runs in its RFC 5054 mode (`srp.rfc5054_enable()`: k = H(N | PAD(g)), u = H(PAD(A) | PAD(B))) with SHA-256
and RFC 5054's 3072-bit group passed as NG_CUSTOM (the RFC 3526 prime, g = 5). The passkey steps use
soft-webauthn through scripts/checks/independent_client.py's helpers, with the UV flag set (enrolment needs a
user-verified login). Starts nothing itself. Usage:

    srp_client.py BASE_URL [--client-id demo-native-app] [--origin http://localhost:8080]

Checks: sign-up; verifier enrolment (204, nothing echoed); a two-step SRP login whose M2 `srp` accepts and whose
access token (checked with PyJWT against the JWKS) says amr ["pwd"] with auth_time; the spent session refused;
a wrong password 403 and its session spent; an unknown identity answered in the same shape (same salt each time,
a fresh B) and in the same timing class, then refused; 400 for A = 0, A = N, verifier = 0, a short salt, M1 of the
wrong length and garbage; through /device-events, three biometric failures make approvals answer
password_required until an SRP login; the password buys no device key (an SRP login for the device-key API is
403, its token 401 at /device-events); key_invalidated (biometry changed) makes the replacement key need a recent
passkey login — a refreshed token and an SRP login's token are refused, a passkey login's accepted. Exits 0 when
every check passes.
"""
import argparse
import os
import statistics
import time

import jwt
import soft_webauthn
import srp
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from fido2 import cbor
from jwt import PyJWKClient

from independent_client import WEBAUTHN_GRANT, assert_with, login_options, sign_up
from passkeyd_http import Client, b64url, check, get_json, refused, run, unb64url

SRP_GRANT = "urn:passkeyd:params:oauth:grant-type:srp6a"
# RFC 3526 §4 3072-bit MODP prime (RFC 5054 Appendix A's 3072-bit group), typed from the RFC.
N_HEX = (
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B"
    "302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE6"
    "49286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D"
    "670C354E4ABC9804F1746C08CA18217C32905E462E36CE3BE39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF69558171"
    "83995497CEA956AE515D2261898FA051015728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7D"
    "B3970F85A6E1E4C7ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C"
    "BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF"
)
SRP_ARGS = dict(hash_alg=srp.SHA256, ng_type=srp.NG_CUSTOM, n_hex=N_HEX.encode(), g_hex=b"5")


class VerifyingDevice(soft_webauthn.SoftWebauthnDevice):
    """soft-webauthn with the UV flag (WebAuthn L3 §6.1 bit 2) set, as a platform authenticator's biometric sets it."""

    def create(self, options, origin):
        credential = super().create(options, origin)
        attestation = cbor.decode(credential["response"]["attestationObject"])
        data = bytearray(attestation["authData"])
        data[32] |= 0x04
        attestation["authData"] = bytes(data)
        credential["response"]["attestationObject"] = cbor.encode(attestation)
        return credential

    def get(self, options, origin):
        credential = super().get(options, origin)
        response = credential["response"]
        data = bytearray(response["authenticatorData"])
        data[32] |= 0x04
        response["authenticatorData"] = bytes(data)
        client_hash = hashes.Hash(hashes.SHA256())
        client_hash.update(response["clientDataJSON"])
        response["signature"] = self.private_key.sign(
            bytes(data) + client_hash.finalize(), ec.ECDSA(hashes.SHA256()))
        return credential


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base")
    parser.add_argument("--client-id", default="demo-native-app")
    parser.add_argument("--origin", default="http://localhost:8080")
    arguments = parser.parse_args()
    srp.rfc5054_enable()
    client = Client(arguments.base, arguments.client_id)
    base = client.base
    jwks = PyJWKClient(base + "/.well-known/jwks.json")

    def bearer(token):
        return {"Authorization": f"Bearer {token}"}

    # Sign-up with a user-verified passkey, for the account API (`<issuer>me/`, the only audience /me/… takes): a
    # fresh login that may enrol a verifier.
    identity, password = "srp-e2e@example.com", "correct horse battery staple"
    device = VerifyingDevice()
    discovery = get_json(base + "/.well-known/openid-configuration")
    account_audience = discovery["issuer"] + "me/"
    # The device-key API's audience (`device_keys.audience`, by default `<issuer>device-keys`).
    device_keys_audience = discovery["issuer"] + "device-keys"
    status, _, signup = sign_up(client, device, arguments.origin, identity, audience=account_audience)
    check("sign-up with a user-verified passkey answers 200", status == 200, f"{status} {signup}")
    passkey_token = signup["access_token"]

    def passkey_login(audience):
        options, session = login_options(client)
        return client.token({"grant_type": WEBAUTHN_GRANT, "auth_session": session,
                             "authn_response": assert_with(device, options, arguments.origin),
                             "scope": "openid offline_access", "audience": audience})

    # Enrolment: `srp` computes s and v; only they reach the server.
    salt, verifier = srp.create_salted_verification_key(identity, password, salt_len=16, **SRP_ARGS)
    while len(salt) != 16:  # srp drops leading zero bytes of its random salt
        salt, verifier = srp.create_salted_verification_key(identity, password, salt_len=16, **SRP_ARGS)
    status, _, answer = client.post(
        "/me/password-verifier", body={"identity": identity, "salt": b64url(salt), "verifier": b64url(verifier)},
        headers=bearer(passkey_token))
    check("POST /me/password-verifier answers 204 with nothing", status == 204 and answer is None, f"{status} {answer}")

    def challenge(who, A):
        return client.post("/srp/challenge", body={"client_id": client.client_id, "identity": who, "A": b64url(A)})

    def login(who, secret, scope="openid offline_access", audience=None):
        user = srp.User(who, secret, **SRP_ARGS)
        _, A = user.start_authentication()
        status, _, answer = challenge(who, A)
        if status != 200:
            return user, None, status, answer
        M = user.process_challenge(unb64url(answer["salt"]), unb64url(answer["B"]))
        parameters = {"grant_type": SRP_GRANT, "auth_session": answer["auth_session"], "M1": b64url(M), "scope": scope}
        if audience is not None:
            parameters["audience"] = audience
        status, _, tokens = client.token(parameters)
        return user, answer, status, tokens

    user, first, status, tokens = login(identity, password)
    check("SRP login (challenge, then the srp6a grant) answers 200", status == 200, f"{status} {tokens}")
    M2 = unb64url(tokens.get("M2", "")) if isinstance(tokens, dict) else b""
    user.verify_session(M2)
    check("srp accepts the server's M2 (the server knew the verifier)", user.authenticated())
    check("the challenge's salt is the enrolled one", unb64url(first["salt"]) == salt)
    access = jwt.decode(
        tokens["access_token"], jwks.get_signing_key_from_jwt(tokens["access_token"]).key, algorithms=["RS256"],
        options={"verify_aud": False})
    check("the access token says amr [\"pwd\"] and auth_time", access.get("amr") == ["pwd"] and "auth_time" in access,
          f"{access}")
    srp_token = tokens["access_token"]
    status, _, answer = client.token(
        {"grant_type": SRP_GRANT, "auth_session": first["auth_session"], "M1": b64url(os.urandom(32))})
    check("the spent auth_session is refused (403 invalid_grant)", refused(status, answer), f"{status} {answer}")

    # A wrong password: 403, and its session is spent.
    _, wrong, status, answer = login(identity, "Tr0ub4dor&3")
    check("a wrong password is 403 invalid_grant", refused(status, answer), f"{status} {answer}")
    status, _, answer = client.token(
        {"grant_type": SRP_GRANT, "auth_session": wrong["auth_session"], "M1": b64url(os.urandom(32))})
    check("the wrong password's session cannot be reused", refused(status, answer), f"{status} {answer}")

    # An unknown identity: the same shape, a stable salt, a fresh B, and the same timing class.
    probe = srp.User("nobody@example.com", "x", **SRP_ARGS)
    _, probe_A = probe.start_authentication()
    unknown = [challenge("nobody@example.com", probe_A) for _ in range(2)]
    known_shape = {key: len(unb64url(value)) if key != "auth_session" else len(value) for key, value in first.items()}
    unknown_shape = {key: len(unb64url(value)) if key != "auth_session" else len(value)
                     for key, value in unknown[0][2].items()}
    check("an unknown identity's challenge answers 200 with the same members and lengths",
          unknown[0][0] == 200 and set(unknown_shape) == set(known_shape)
          and unknown_shape["salt"] == known_shape["salt"] and unknown_shape["auth_session"] == known_shape["auth_session"]
          and abs(unknown_shape["B"] - known_shape["B"]) <= 2, f"{known_shape} {unknown_shape}")
    check("its salt is the same each time, its B fresh",
          unknown[0][2]["salt"] == unknown[1][2]["salt"] and unknown[0][2]["B"] != unknown[1][2]["B"])

    def timed(who):
        started = time.perf_counter()
        challenge(who, probe_A)
        return time.perf_counter() - started

    # Interleaved after a warm-up, so that load on the machine weighs on both alike.
    for _ in range(3):
        timed(identity), timed("nobody@example.com")
    samples = [(timed(identity), timed("nobody@example.com")) for _ in range(15)]
    known_time = statistics.median(known for known, _ in samples)
    unknown_time = statistics.median(unknown for _, unknown in samples)
    check("known and unknown identities take comparable time (medians within a factor of 2)",
          0.5 < unknown_time / known_time < 2.0, f"known {known_time * 1000:.2f} ms, unknown {unknown_time * 1000:.2f} ms")
    M = probe.process_challenge(unb64url(unknown[1][2]["salt"]), unb64url(unknown[1][2]["B"]))
    status, _, answer = client.token(
        {"grant_type": SRP_GRANT, "auth_session": unknown[1][2]["auth_session"], "M1": b64url(M)})
    check("an unknown identity's login is 403 invalid_grant", refused(status, answer), f"{status} {answer}")

    # Wrong inputs: 400 invalid_request, never a 500.
    N = bytes.fromhex(N_HEX)

    def bad_request(what, status, answer):
        check(f"{what} is 400 invalid_request", status == 400 and answer.get("error") == "invalid_request",
              f"{status} {answer}")

    for what, A in [("A = 0", b"\0"), ("A = N", N), ("A = 2N", (2 * int(N_HEX, 16)).to_bytes(385, "big"))]:
        bad_request(what, *challenge(identity, A)[0::2])
    status, _, answer = client.post("/srp/challenge", body={"client_id": client.client_id, "identity": identity, "A": "!!"})
    bad_request("non-base64url A", status, answer)
    for what, body in [
        ("verifier = 0", {"identity": identity, "salt": b64url(salt), "verifier": b64url(b"\0")}),
        ("a salt of 8 bytes", {"identity": identity, "salt": b64url(salt[:8]), "verifier": b64url(verifier)}),
        ("a non-base64url verifier", {"identity": identity, "salt": b64url(salt), "verifier": "zz*z"}),
    ]:
        status, _, answer = client.post("/me/password-verifier", body=body, headers=bearer(passkey_token))
        bad_request(what, status, answer)
    _, A = srp.User(identity, password, **SRP_ARGS).start_authentication()
    pending = challenge(identity, A)[2]
    for what, M1 in [("M1 of 31 bytes", b64url(os.urandom(31))), ("non-base64url M1", "%%%")]:
        status, _, answer = client.token({"grant_type": SRP_GRANT, "auth_session": pending["auth_session"], "M1": M1})
        bad_request(what, status, answer)

    # The unlock policy through /device-events: three biometric failures, then the password. The device key is
    # enrolled with a passkey login for the device-key API.
    status, _, device_login = passkey_login(device_keys_audience)
    check("a passkey login for the device-key API answers 200", status == 200, f"{status} {device_login}")
    passkey_token = device_login["access_token"]
    key = ec.generate_private_key(ec.SECP256R1())
    point = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    status, _, enrolled = client.post(
        "/device-keys", body={"device_id": "phone", "platform": "ios", "public_key": b64url(point)},
        headers=bearer(passkey_token))
    check("a device key is enrolled (201)", status == 201, f"{status} {enrolled}")
    key_id = enrolled["key_id"]
    action = {"type": "unlock_vault"}

    def approve():
        status, _, issued = client.post(f"/device-keys/{key_id}/challenges", body={"action": action},
                                        headers=bearer(passkey_token))
        if status != 201:
            return status, issued
        signature = key.sign(unb64url(issued["challenge"]), ec.ECDSA(hashes.SHA256()))
        status, _, answer = client.post(
            f"/device-keys/{key_id}/approvals",
            body={"challenge_id": issued["challenge_id"], "signature": b64url(signature)},
            headers=bearer(passkey_token))
        return status, answer

    def event(kind):
        return client.post("/device-events", body={"device_id": "phone", "type": kind}, headers=bearer(passkey_token))

    for _ in range(2):
        event("biometric_failure")
    status, answer = approve()
    check("two biometric failures: approvals still work", status == 200, f"{status} {answer}")
    status, _, answer = event("biometric_failure")
    check("the third biometric failure reports password_required",
          status == 200 and answer["keys"][0].get("password_required") is True, f"{status} {answer}")
    status, answer = approve()
    check("then approvals answer 403 password_required",
          status == 403 and answer.get("error") == "password_required", f"{status} {answer}")
    _, _, status, tokens = login(identity, password)
    check("an SRP login of the same user succeeds", status == 200, f"{status} {tokens}")
    status, answer = approve()
    check("after it, approvals work again", status == 200, f"{status} {answer}")

    # The password alone buys no device key: an SRP login asking for the device-key API is refused, and the token
    # it does get (the issuer's, for /userinfo) is refused by the device-key endpoints.
    _, _, status, answer = login(identity, password, audience=device_keys_audience)
    check("an SRP login for the device-key API is 403 access_denied",
          status == 403 and answer.get("error") == "access_denied", f"{status} {answer}")
    _, _, status, srp_tokens = login(identity, password)
    status, _, answer = client.post("/device-events", body={"device_id": "phone", "type": "key_invalidated"},
                                    headers=bearer(srp_tokens["access_token"]))
    check("an SRP token cannot report key_invalidated (401)", status == 401, f"{status} {answer}")

    # Biometry changed: the key is revoked (the report carries the fresh passkey login as proof); the replacement
    # needs a recent passkey login, not merely a valid token.
    status, _, answer = event("key_invalidated")
    check("key_invalidated revokes the device's key", status == 200 and answer["keys"][0]["status"] == "revoked",
          f"{status} {answer}")
    status, _, refreshed = client.token({"grant_type": "refresh_token", "refresh_token": device_login["refresh_token"],
                                         "audience": device_keys_audience})
    check("the refresh grant gives a valid access token", status == 200, f"{status} {refreshed}")
    replacement = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    body = {"device_id": "phone", "platform": "ios", "public_key": b64url(replacement)}
    status, _, answer = client.post("/device-keys", body=body, headers=bearer(refreshed["access_token"]))
    check("after a biometry change, a refreshed token cannot enrol the replacement (401 "
          "insufficient_user_authentication)",
          status == 401 and answer.get("error") == "insufficient_user_authentication", f"{status} {answer}")
    status, _, answer = client.post("/device-keys", body=body, headers=bearer(srp_tokens["access_token"]))
    check("an SRP login's token cannot enrol it (401)", status == 401, f"{status} {answer}")
    status, _, fresh = passkey_login(device_keys_audience)
    status, _, answer = client.post("/device-keys", body=body, headers=bearer(fresh["access_token"]))
    check("a fresh passkey login enrols it (201)", status == 201, f"{status} {answer}")


if __name__ == "__main__":
    run("srp_client", main)
