#!/usr/bin/env python3
"""Drives passkeyd's Auth0-style passkey API with an authenticator and HTTP client that share no code with it.

The authenticator is soft-webauthn (PyPI): python-fido2's CBOR encoder, `cryptography`'s ECDSA, Python's
json.dumps for clientDataJSON (spaces after ':' and ',', unlike browsers). It sets UP but never UV, so the server
under test must run with `passkeys.user_verification` = `preferred` (or `discouraged`). Tokens are checked with
PyJWT against the discovery document and the JWKS. Starts nothing itself. Usage:

    independent_client.py BASE_URL [--client-id demo-native-app] [--origin http://localhost:8080]
        [--android-origin android:apk-key-hash:…]

Checks, in order: sign-up (JSON body) and the tokens it returns; a login with a form-encoded token request
(authn_response as a JSON string); the same assertion again (spent auth_session) and under a fresh session
(challenge mismatch), both 403 invalid_grant; a login from the Android app origin when one is given; /userinfo;
refresh rotation, reuse of the rotated token (403) revoking the family (the new token then 403 too); RFC 7009
revocation; a CORS preflight from the web origin. Exits 0 when every check passes, 1 otherwise.

Its WebAuthn pieces (registration_json, assertion_json, sign_up, login_options, assert_with, verify_tokens) serve the
other checks that sign up or log in with soft-webauthn (dpop_client.py, srp_client.py, record_replay.py,
three_nodes.py); HTTP, base64url and the check lines are passkeyd_http.py's.
"""
import argparse

import jwt
import soft_webauthn
from jwt import PyJWKClient

from passkeyd_http import Client, b64url, check, get_json, refused, request, run, unb64url

WEBAUTHN_GRANT = "urn:okta:params:oauth:grant-type:webauthn"


def registration_json(credential):
    """soft-webauthn's PublicKeyCredential (bytes) in WebAuthn's JSON form (base64url, no padding)."""
    return {
        "id": b64url(credential["rawId"]),
        "rawId": b64url(credential["rawId"]),
        "type": "public-key",
        "response": {
            "clientDataJSON": b64url(credential["response"]["clientDataJSON"]),
            "attestationObject": b64url(credential["response"]["attestationObject"]),
        },
    }


def assertion_json(credential):
    response = credential["response"]
    return {
        "id": b64url(credential["rawId"]),
        "rawId": b64url(credential["rawId"]),
        "type": "public-key",
        "response": {
            "clientDataJSON": b64url(response["clientDataJSON"]),
            "authenticatorData": b64url(response["authenticatorData"]),
            "signature": b64url(response["signature"]),
            "userHandle": b64url(response["userHandle"]),
        },
    }


def sign_up(client, device, origin, email, audience=None):
    status, _, answer = client.post(
        "/passkey/register", body={"client_id": client.client_id, "user_profile": {"email": email, "name": "Indie"}})
    check("POST /passkey/register answers 200", status == 200, f"{status} {answer}")
    options = answer["authn_params_public_key"]
    public_key = {
        "rp": options["rp"],
        "user": dict(options["user"], id=unb64url(options["user"]["id"])),
        "challenge": unb64url(options["challenge"]),
        "pubKeyCredParams": options["pubKeyCredParams"],
    }
    credential = device.create({"publicKey": public_key}, origin)
    parameters = {"grant_type": WEBAUTHN_GRANT, "auth_session": answer["auth_session"],
                  "authn_response": registration_json(credential), "scope": "openid profile email offline_access"}
    if audience is not None:
        parameters["audience"] = audience
    return client.token(parameters)


def login_options(client):
    status, _, answer = client.post("/passkey/challenge", body={"client_id": client.client_id})
    check("POST /passkey/challenge answers 200", status == 200, f"{status} {answer}")
    options = answer["authn_params_public_key"]
    return options, answer["auth_session"]


def assert_with(device, options, origin):
    return assertion_json(
        device.get({"publicKey": {"rpId": options["rpId"], "challenge": unb64url(options["challenge"])}}, origin))


def verify_tokens(tokens, keys, issuer, client_id, what):
    """Checks that the access token (at+jwt, audience the issuer) and the ID token (audience the client) of a token
    response verify with PyJWT against `keys` (a PyJWKClient); returns their claims, or (None, None)."""
    try:
        access_key = keys.get_signing_key_from_jwt(tokens["access_token"]).key
        access = jwt.decode(tokens["access_token"], access_key, algorithms=["RS256"], audience=issuer, issuer=issuer)
        header = jwt.get_unverified_header(tokens["access_token"])
        id_key = keys.get_signing_key_from_jwt(tokens["id_token"]).key
        identity = jwt.decode(tokens["id_token"], id_key, algorithms=["RS256"], audience=client_id, issuer=issuer)
        check(f"{what}: access token (at+jwt) and ID token verify with PyJWT",
              header.get("typ") == "at+jwt" and access["sub"] == identity["sub"], f"{header} {access} {identity}")
        return access, identity
    except Exception as error:  # a refused token is a failed check, not a crash
        check(f"{what}: tokens verify with PyJWT", False, repr(error))
        return None, None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base")
    parser.add_argument("--client-id", default="demo-native-app")
    parser.add_argument("--origin", default="http://localhost:8080")
    parser.add_argument("--android-origin")
    arguments = parser.parse_args()
    client = Client(arguments.base, arguments.client_id)
    discovery = get_json(client.base + "/.well-known/openid-configuration")
    issuer = discovery["issuer"]
    keys = PyJWKClient(discovery["jwks_uri"])

    def verified(tokens, what):
        return verify_tokens(tokens, keys, issuer, client.client_id, what)

    device = soft_webauthn.SoftWebauthnDevice()
    status, _, signup = sign_up(client, device, arguments.origin, "indie@example.com")
    check("sign-up by soft-webauthn: 200 with access, ID and refresh tokens",
          status == 200 and {"access_token", "id_token", "refresh_token"} <= set(signup or {}), f"{status} {signup}")
    if status != 200:
        return
    _, identity = verified(signup, "sign-up")
    check("ID token carries the email", identity is not None and identity.get("email") == "indie@example.com",
          f"{identity}")

    options, session = login_options(client)
    assertion = assert_with(device, options, arguments.origin)
    status, _, login = client.token(
        {"grant_type": WEBAUTHN_GRANT, "auth_session": session, "authn_response": assertion,
         "scope": "openid email offline_access"}, form=True)
    check("login, form-encoded token request: 200", status == 200, f"{status} {login}")
    if status != 200:
        return
    verified(login, "login")
    status, _, answer = client.token(
        {"grant_type": WEBAUTHN_GRANT, "auth_session": session, "authn_response": assertion})
    check("the same assertion and auth_session again: 403 invalid_grant", refused(status, answer), f"{status} {answer}")
    _, fresh = login_options(client)
    status, _, answer = client.token({"grant_type": WEBAUTHN_GRANT, "auth_session": fresh, "authn_response": assertion})
    check("the old assertion under a fresh auth_session: 403 invalid_grant", refused(status, answer),
          f"{status} {answer}")

    if arguments.android_origin:
        options, session = login_options(client)
        status, _, answer = client.token(
            {"grant_type": WEBAUTHN_GRANT, "auth_session": session,
             "authn_response": assert_with(device, options, arguments.android_origin)})
        check("login from the Android app's apk-key-hash origin: 200", status == 200, f"{status} {answer}")
        options, session = login_options(client)
        wrong = arguments.android_origin[:-4] + ("AAAA" if not arguments.android_origin.endswith("AAAA") else "BBBB")
        status, _, answer = client.token(
            {"grant_type": WEBAUTHN_GRANT, "auth_session": session,
             "authn_response": assert_with(device, options, wrong)})
        check("login from another apk-key-hash: 403 invalid_grant", refused(status, answer), f"{status} {answer}")

    status, _, info = request("GET", client.base + "/userinfo",
                              headers={"Authorization": "Bearer " + login["access_token"]})
    check("GET /userinfo with the access token: 200 with sub and email",
          status == 200 and info.get("email") == "indie@example.com" and info.get("sub"), f"{status} {info}")
    status, headers, _ = request("GET", client.base + "/userinfo", headers={"Authorization": "Bearer nope"})
    check("GET /userinfo with a bad token: 401 with WWW-Authenticate",
          status == 401 and "Bearer" in (headers.get("WWW-Authenticate") or ""), f"{status}")

    first = login["refresh_token"]
    status, _, rotated = client.token({"grant_type": "refresh_token", "refresh_token": first})
    check("refresh: 200 with a new refresh token",
          status == 200 and rotated.get("refresh_token") not in (None, first), f"{status} {rotated}")
    status, _, answer = client.token({"grant_type": "refresh_token", "refresh_token": first})
    check("the rotated refresh token again: 403 invalid_grant", refused(status, answer), f"{status} {answer}")
    status, _, answer = client.token({"grant_type": "refresh_token", "refresh_token": rotated.get("refresh_token")})
    check("reuse revoked the family: the newer token is refused too", refused(status, answer), f"{status} {answer}")

    options, session = login_options(client)
    status, _, again = client.token(
        {"grant_type": WEBAUTHN_GRANT, "auth_session": session,
         "authn_response": assert_with(device, options, arguments.origin), "scope": "openid offline_access"})
    check("another login: 200", status == 200, f"{status} {again}")
    token = (again or {}).get("refresh_token", "")
    status, _, _ = client.post("/oauth/revoke", form={"client_id": client.client_id, "token": token})
    check("POST /oauth/revoke: 200", status == 200, f"{status}")
    status, _, answer = client.token({"grant_type": "refresh_token", "refresh_token": token})
    check("the revoked refresh token: 403 invalid_grant", refused(status, answer), f"{status} {answer}")
    status, _, _ = client.post("/oauth/revoke", form={"client_id": client.client_id, "token": "never-issued"})
    check("revoking an unknown token: 200 (RFC 7009 §2.2)", status == 200, f"{status}")

    status, headers, _ = request(
        "OPTIONS", client.base + "/oauth/token",
        headers={"Origin": arguments.origin, "Access-Control-Request-Method": "POST",
                 "Access-Control-Request-Headers": "content-type"})
    check("CORS preflight from the web origin: 204 allowing it",
          status == 204 and headers.get("Access-Control-Allow-Origin") == arguments.origin, f"{status}")


if __name__ == "__main__":
    run("independent_client", main)
