#!/usr/bin/env python3
"""Verifies passkeyd's tokens with an independent JWT library (PyJWT), from the discovery document and the JWKS.

Starts nothing itself. Usage:
    verify_tokens.py BASE_URL [TOKEN_RESPONSE_FILE]   (default: the token response JSON on stdin)
        [--client-id demo-native-app] [--audience AUD] [--access-token-alg RS256|ES256] [--id-token-alg RS256|ES256]

Checks: GET BASE_URL/.well-known/openid-configuration names an issuer and a jwks_uri; the access token is an
RFC 9068 JWT (header typ "at+jwt", --access-token-alg: default RS256, passkeyd's `tokens.access_token_signing_alg`
default as Auth0's; a kid published in the JWKS) whose signature, iss, aud (default: the
issuer), exp, iat, sub, client_id, scope and jti hold; the ID token (OIDC Core §2, §3.1.3.7) is signed with
--id-token-alg (default RS256, OIDC's default; ES256 for a client with id_token_signed_response_alg ES256) by a key
the JWKS publishes with that alg and use "sig", and verifies with aud = client_id, the same iss and sub, and exp,
iat, auth_time; discovery lists RS256 and ES256; a token with one altered signature byte is refused.
Exits 0 when every check passes, 1 otherwise.
"""
import argparse
import json
import sys

import jwt
from jwt import PyJWKClient

from passkeyd_http import check, get_json, run


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base_url")
    parser.add_argument("token_response", nargs="?", help="file with the token response JSON (default: stdin)")
    parser.add_argument("--client-id", default="demo-native-app")
    parser.add_argument("--audience", help="expected access-token aud (default: the issuer)")
    parser.add_argument("--access-token-alg", default="RS256", choices=["RS256", "ES256"])
    parser.add_argument("--id-token-alg", default="RS256", choices=["RS256", "ES256"])
    args = parser.parse_args()

    text = open(args.token_response).read() if args.token_response else sys.stdin.read()
    tokens = json.loads(text)
    base = args.base_url.rstrip("/")
    discovery = get_json(base + "/.well-known/openid-configuration")
    issuer = discovery.get("issuer")
    jwks_uri = discovery.get("jwks_uri")
    check("discovery names an issuer and a jwks_uri", bool(issuer) and bool(jwks_uri), json.dumps(discovery))
    algorithms = discovery.get("id_token_signing_alg_values_supported", [])
    check("discovery lists RS256 (OIDC Discovery §3) and ES256", "RS256" in algorithms and "ES256" in algorithms,
          algorithms)
    jwks = get_json(jwks_uri)
    published = {key.get("kty"): key for key in jwks.get("keys", [])}
    check("the JWKS publishes an RSA key (RS256) and an EC key (ES256), each with use sig, alg and kid",
          published.get("RSA", {}).get("alg") == "RS256" and published.get("EC", {}).get("alg") == "ES256"
          and all(key.get("use") == "sig" and key.get("kid") for key in jwks.get("keys", [])), json.dumps(jwks))
    check("the token response is a Bearer token", tokens.get("token_type") == "Bearer", text)
    jwks_client = PyJWKClient(jwks_uri)
    audience = args.audience or issuer

    access_token = tokens.get("access_token", "")
    header = jwt.get_unverified_header(access_token)
    check("access token header: typ at+jwt (RFC 9068 §2.1)", header.get("typ", "").lower() == "at+jwt", header)
    alg = args.access_token_alg
    check(f"access token header: alg {alg} with a kid", header.get("alg") == alg and "kid" in header, header)
    key = jwks_client.get_signing_key_from_jwt(access_token)
    try:
        claims = jwt.decode(
            access_token, key.key, algorithms=[alg], audience=audience, issuer=issuer,
            options={"require": ["iss", "sub", "aud", "exp", "iat", "jti"]})
        check(f"access token: {alg} signature, iss, aud, exp verify with PyJWT", True)
        check("access token: client_id and scope (RFC 9068 §2.2)",
              claims.get("client_id") == args.client_id and isinstance(claims.get("scope"), str), claims)
    except jwt.PyJWTError as error:
        check(f"access token: {alg} signature, iss, aud, exp verify with PyJWT", False, repr(error))
        claims = {}

    # One altered byte in the signature must make PyJWT refuse the token.
    head, payload, signature = access_token.split(".")
    altered = signature[:-2] + ("A" if signature[-2] != "A" else "B") + signature[-1]
    try:
        jwt.decode(f"{head}.{payload}.{altered}", key.key, algorithms=[alg], audience=audience, issuer=issuer)
        check("access token with an altered signature is refused", False)
    except jwt.InvalidSignatureError:
        check("access token with an altered signature is refused", True)

    id_token = tokens.get("id_token")
    check("an id_token is present (openid scope)", bool(id_token))
    if id_token:
        alg = args.id_token_alg
        id_header = jwt.get_unverified_header(id_token)
        check(f"id token header: alg {alg} with a kid", id_header.get("alg") == alg and "kid" in id_header, id_header)
        key = jwks_client.get_signing_key_from_jwt(id_token)
        try:
            # Only the expected algorithm: PyJWT then refuses a token signed otherwise (RFC 8725 §3.1).
            id_claims = jwt.decode(
                id_token, key.key, algorithms=[alg], audience=args.client_id, issuer=issuer,
                options={"require": ["iss", "sub", "aud", "exp", "iat", "auth_time"]})
            check(f"id token: {alg} signature, iss, aud = client_id, exp verify with PyJWT", True)
            check("id token and access token name the same subject", id_claims.get("sub") == claims.get("sub"))
        except jwt.PyJWTError as error:
            check(f"id token: {alg} signature, iss, aud = client_id, exp verify with PyJWT", False, repr(error))
        head, payload, signature = id_token.split(".")
        altered = signature[:-2] + ("A" if signature[-2] != "A" else "B") + signature[-1]
        try:
            jwt.decode(f"{head}.{payload}.{altered}", key.key, algorithms=[alg], audience=args.client_id,
                       issuer=issuer)
            check("id token with an altered signature is refused", False)
        except jwt.InvalidSignatureError:
            check("id token with an altered signature is refused", True)


if __name__ == "__main__":
    run("verify_tokens", main)
