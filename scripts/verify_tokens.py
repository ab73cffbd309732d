#!/usr/bin/env python3
"""Verifies passkeyd's tokens with an independent JWT library (PyJWT), from the discovery document and the JWKS.

Starts nothing itself. Usage:
    verify_tokens.py BASE_URL [TOKEN_RESPONSE_FILE]   (default: the token response JSON on stdin)
        [--client-id demo-native-app] [--audience AUD]

Checks: GET BASE_URL/.well-known/openid-configuration names an issuer and a jwks_uri; the access token is an
RFC 9068 JWT (header typ "at+jwt", ES256, a kid published in the JWKS) whose signature, iss, aud (default: the
issuer), exp, iat, sub, client_id, scope and jti hold; the ID token (OIDC Core §2, §3.1.3.7) verifies with
aud = client_id, the same iss and sub, and exp, iat, auth_time; a token with one altered signature byte is refused.
Exits 0 when every check passes, 1 otherwise.
"""
import argparse
import json
import sys
import urllib.request

import jwt
from jwt import PyJWKClient

failures = 0


def check(description, condition, detail=""):
    global failures
    if condition:
        print(f"verify_tokens: ok   {description}")
    else:
        failures += 1
        print(f"verify_tokens: FAIL {description} {detail}".rstrip())


def fetch_json(url):
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.load(response)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base_url")
    parser.add_argument("token_response", nargs="?", help="file with the token response JSON (default: stdin)")
    parser.add_argument("--client-id", default="demo-native-app")
    parser.add_argument("--audience", help="expected access-token aud (default: the issuer)")
    args = parser.parse_args()

    text = open(args.token_response).read() if args.token_response else sys.stdin.read()
    tokens = json.loads(text)
    base = args.base_url.rstrip("/")
    discovery = fetch_json(base + "/.well-known/openid-configuration")
    issuer = discovery.get("issuer")
    jwks_uri = discovery.get("jwks_uri")
    check("discovery names an issuer and a jwks_uri", bool(issuer) and bool(jwks_uri), json.dumps(discovery))
    check("discovery lists ES256", "ES256" in discovery.get("id_token_signing_alg_values_supported", []))
    check("the token response is a Bearer token", tokens.get("token_type") == "Bearer", text)
    jwks_client = PyJWKClient(jwks_uri)
    audience = args.audience or issuer

    access_token = tokens.get("access_token", "")
    header = jwt.get_unverified_header(access_token)
    check("access token header: typ at+jwt (RFC 9068 §2.1)", header.get("typ", "").lower() == "at+jwt", header)
    check("access token header: alg ES256 with a kid", header.get("alg") == "ES256" and "kid" in header, header)
    key = jwks_client.get_signing_key_from_jwt(access_token)
    try:
        claims = jwt.decode(
            access_token, key.key, algorithms=["ES256"], audience=audience, issuer=issuer,
            options={"require": ["iss", "sub", "aud", "exp", "iat", "jti"]})
        check("access token: ES256 signature, iss, aud, exp verify with PyJWT", True)
        check("access token: client_id and scope (RFC 9068 §2.2)",
              claims.get("client_id") == args.client_id and isinstance(claims.get("scope"), str), claims)
    except jwt.PyJWTError as error:
        check("access token: ES256 signature, iss, aud, exp verify with PyJWT", False, repr(error))
        claims = {}

    # One altered byte in the signature must make PyJWT refuse the token.
    head, payload, signature = access_token.split(".")
    altered = signature[:-2] + ("A" if signature[-2] != "A" else "B") + signature[-1]
    try:
        jwt.decode(f"{head}.{payload}.{altered}", key.key, algorithms=["ES256"], audience=audience, issuer=issuer)
        check("access token with an altered signature is refused", False)
    except jwt.InvalidSignatureError:
        check("access token with an altered signature is refused", True)

    id_token = tokens.get("id_token")
    check("an id_token is present (openid scope)", bool(id_token))
    if id_token:
        key = jwks_client.get_signing_key_from_jwt(id_token)
        try:
            id_claims = jwt.decode(
                id_token, key.key, algorithms=["ES256"], audience=args.client_id, issuer=issuer,
                options={"require": ["iss", "sub", "aud", "exp", "iat", "auth_time"]})
            check("id token: ES256 signature, iss, aud = client_id, exp verify with PyJWT", True)
            check("id token and access token name the same subject", id_claims.get("sub") == claims.get("sub"))
        except jwt.PyJWTError as error:
            check("id token: ES256 signature, iss, aud = client_id, exp verify with PyJWT", False, repr(error))

    if failures:
        print(f"verify_tokens: {failures} check(s) failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
