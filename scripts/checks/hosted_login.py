#!/usr/bin/env python3
"""The hosted login (docs/hosted-login.md) end to end with software that shares no code with passkeyd: authlib
(PyPI), an OpenID Connect client library, runs the authorization code flow with PKCE (S256) from the discovery
document and validates each ID token (signature from the JWKS, iss, aud, nonce, exp, iat); headless Chromium
(Debian's chromium + chromedriver, selenium) with a WebAuthn virtual authenticator (CTAP2, internal, resident keys,
user verification) drives the hosted page and follows the redirects to a catcher on another loopback port (an
http.server run here), whose requests give the redirect's code, state and iss.

The flow: a sign-up on the hosted page (identifier, then passkey-signup), a sign-in (prompt=login, passkey-login;
the page loaded as in a browser without conditional mediation), another through conditional mediation (the page's
autofill request, which Chromium's virtual authenticator answers by itself), a silent /authorize in the same browser session (no page, no ceremony), a logout through end_session_endpoint
without id_token_hint (the logout question, answered "Stay signed in"), one with the session's ID token
(RP-Initiated Logout), then prompt=none answered error=login_required; last, a sign-up on the page of the realm
`connection=staff` names (a username), whose session gives a code in that realm only, a pushed authorization
request (RFC 9126) answered from that session, and an unknown connection refused. Within the first session, the
response modes: form_post (the code POSTed to the catcher, after a ceremony and silently) and web_message (posted to
a web app on http://localhost:CATCHER_PORT, one of the client's web origins, that frames the silent request, then
opens it in a popup), a confidential client's code flow (its secret by Basic, then in the body), and a machine
client's private_key_jwt assertions. Besides: the discovery metadata, the login
session cookie's attributes, a second redemption of a code refused, a refresh through authlib, and the related
origins document.

Usage: hosted_login.py ISSUER CLIENT_ID CATCHER_PORT RELATED_ORIGIN SCREENSHOT
  ISSUER          the daemon's issuer (http://localhost:PORT/)
  CLIENT_ID       a client with authorization_code whose redirect URIs are http://127.0.0.1:CATCHER_PORT/callback and
                  http://localhost:CATCHER_PORT/app-callback, whose web origins list http://localhost:CATCHER_PORT
                  and whose post-logout redirect URI is http://127.0.0.1:CATCHER_PORT/signed-out
  CATCHER_PORT    a free loopback port for the catcher
  RELATED_ORIGIN  a related origin configured on the default realm (GET /.well-known/webauthn lists it)
  SCREENSHOT      where to write a screenshot of the hosted page (the sign-in's)
The environment's HOSTED_LOGIN_SERVER_SECRET is the secret of the confidential client `hosted-login-server`, whose
redirect URI is http://127.0.0.1:CATCHER_PORT/server-callback.
"""
import http.server
import os
import secrets
import sys
import threading
import urllib.parse
import uuid

import requests
from authlib.common.security import generate_token
from authlib.integrations.requests_client import OAuth2Session
from authlib.jose import JsonWebKey, JsonWebToken
from authlib.oidc.core import CodeIDToken
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from passkeyd_http import check, run

SCOPE = "openid profile email offline_access"


# The web app of the web_message checks, served by the catcher at /app: it frames (?via=iframe) or opens in a popup
# (?via=popup, on a click, as a browser's popup blocker wants) the authorization URL in ?authorize=, and records every
# message it receives with its origin, as auth0-spa-js listens for the authorization response.
APP_PAGE = b"""<!doctype html><title>app</title><button id="popup">Sign in</button><script>
window.received = [];
const parameters = new URLSearchParams(location.search);
window.addEventListener("message", (event) => {
  window.received.push({origin: event.origin, data: event.data});
  if (window.popup) window.popup.close();
});
if (parameters.get("via") === "iframe") {
  const frame = document.createElement("iframe");
  frame.src = parameters.get("authorize");
  document.body.appendChild(frame);
}
document.getElementById("popup").onclick = () => { window.popup = window.open(parameters.get("authorize"), "auth"); };
</script>"""


class Catcher:
    """The client's redirect target: a loopback HTTP server answering every GET with a small page (the web app's at
    /app) and recording the request targets it received, in order, and every POST's target and form (form_post)."""

    def __init__(self, port):
        received = self.received = []
        posted = self.posted = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                received.append(self.path)
                body = APP_PAGE if self.path.startswith("/app?") else b"<!doctype html><title>caught</title><p>caught</p>"
                self.answer(body)

            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                form = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))
                posted.append((self.path, self.headers.get("Content-Type"), form))
                self.answer(b"<!doctype html><title>caught</title><p>caught</p>")

            def answer(self, body):
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def browser():
    # selenium-manager stays offline: the Debian chromedriver and chromium, nothing downloaded.
    os.environ["SE_OFFLINE"] = "true"
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=900,1000"):
        options.add_argument(argument)
    return webdriver.Chrome(options=options, service=Service(executable_path="/usr/bin/chromedriver"))


def query(url):
    """The query parameters of `url`, one value each."""
    return {key: values[0] for key, values in urllib.parse.parse_qs(urllib.parse.urlsplit(url).query).items()}


def wait_for_redirect(driver, prefix, seconds=30):
    """The browser's URL once it starts with `prefix` (the catcher); fails with the hosted page's error region's text
    when that shows first."""

    def arrived(_):
        if driver.current_url.startswith(prefix):
            return True
        try:
            errors = driver.find_elements(By.ID, "error")
            text = errors[0].text.strip() if errors else ""
        except StaleElementReferenceException:  # the page navigated away meanwhile
            return False
        if text:
            raise AssertionError(f"the hosted page shows an error: {text}")
        return False

    WebDriverWait(driver, seconds).until(arrived)
    return driver.current_url


def sign_count(driver, authenticator):
    credentials = driver.execute_cdp_cmd("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    return sum(credential["signCount"] for credential in credentials), credentials


class RelyingParty:
    """An OpenID Connect client as a web app would run it with authlib: discovery first, then one authorization
    request at a time (its state, nonce and PKCE verifier kept), the code redeemed and the ID token validated."""

    def __init__(self, issuer, client_id, redirect_uri, client_secret=None, auth_method="none"):
        self.issuer, self.client_id, self.redirect_uri = issuer, client_id, redirect_uri
        self.client_secret, self.auth_method = client_secret, auth_method
        self.metadata = requests.get(issuer + ".well-known/openid-configuration", timeout=10).json()
        self.keys = JsonWebKey.import_key_set(requests.get(self.metadata["jwks_uri"], timeout=10).json())
        # Only the algorithms the discovery document names (never "none").
        self.jwt = JsonWebToken(self.metadata["id_token_signing_alg_values_supported"])

    def authorization_url(self, **extra):
        """A new authorization request: its URL, with state, nonce and the S256 challenge of a fresh verifier."""
        self.session = OAuth2Session(
            self.client_id, client_secret=self.client_secret, redirect_uri=self.redirect_uri, scope=SCOPE,
            code_challenge_method="S256", token_endpoint_auth_method=self.auth_method)
        self.verifier = generate_token(64)
        self.nonce = secrets.token_urlsafe(16)
        url, self.state = self.session.create_authorization_url(
            self.metadata["authorization_endpoint"], code_verifier=self.verifier, nonce=self.nonce, **extra)
        return url

    def redeem(self, callback_url):
        """The token response for the code in `callback_url` (authlib checks its state), and the validated ID token's
        claims."""
        token = self.session.fetch_token(
            self.metadata["token_endpoint"], authorization_response=callback_url, code_verifier=self.verifier)
        return token, self.validate(token["id_token"])

    def validate(self, id_token):
        """OIDC Core §3.1.3.7 through authlib: the signature with the JWKS, iss, aud (and azp), exp, iat, nonce."""
        claims = self.jwt.decode(
            id_token, self.keys, claims_cls=CodeIDToken,
            claims_options={"iss": {"essential": True, "value": self.issuer},
                            "aud": {"essential": True, "value": self.client_id}},
            claims_params={"nonce": self.nonce, "client_id": self.client_id})
        claims.validate(leeway=5)
        return claims


def check_discovery(rp):
    metadata = rp.metadata
    check("discovery names the issuer", metadata.get("issuer") == rp.issuer, str(metadata.get("issuer")))
    check("discovery has authorization_endpoint and end_session_endpoint",
          bool(metadata.get("authorization_endpoint")) and bool(metadata.get("end_session_endpoint")), str(metadata))
    check("discovery: response_types_supported is [code]", metadata.get("response_types_supported") == ["code"],
          str(metadata.get("response_types_supported")))
    check("discovery: code_challenge_methods_supported is [S256]",
          metadata.get("code_challenge_methods_supported") == ["S256"],
          str(metadata.get("code_challenge_methods_supported")))
    check("discovery: grant_types_supported lists authorization_code",
          "authorization_code" in metadata.get("grant_types_supported", []),
          str(metadata.get("grant_types_supported")))
    check("discovery: authorization_response_iss_parameter_supported (RFC 9207)",
          metadata.get("authorization_response_iss_parameter_supported") is True)


def check_callback(rp, url, callback, ceremony):
    """The redirect of a successful authorization: at the redirect URI, with code, the request's state and iss."""
    parameters = query(url)
    check(f"{ceremony}: redirected to the redirect URI", url.startswith(callback + "?"), url)
    check(f"{ceremony}: the redirect carries a code and the request's state",
          bool(parameters.get("code")) and parameters.get("state") == rp.state, str(parameters))
    check(f"{ceremony}: the redirect's iss is the issuer (RFC 9207)", parameters.get("iss") == rp.issuer,
          str(parameters.get("iss")))


def check_response_modes(driver, rp, catcher, callback, subject, issuer, client_id, catcher_port):
    """response_mode=form_post (OAuth 2.0 Form Post Response Mode) and web_message (Auth0's), within the live session
    of `subject`: the code POSTed to the catcher by the hosted page's form, after a ceremony and silently; then
    posted by window.postMessage to a web app on http://localhost:CATCHER_PORT (one of the client's web origins) that
    frames the silent request, and to one that opens it in a popup."""
    # form_post after a ceremony (prompt=login; the page's autofill request is answered by the virtual authenticator):
    # the page's script POSTs the form to the redirect URI.
    for label, extra in (("after the page's ceremony", {"prompt": "login"}), ("silently", {"prompt": "none"})):
        before = len(catcher.posted)
        driver.get(rp.authorization_url(response_mode="form_post", **extra))
        WebDriverWait(driver, 30).until(lambda _: len(catcher.posted) > before)
        path, content_type, form = catcher.posted[-1]
        check(f"form_post {label}: a POST of code, state and iss to the redirect URI",
              path == "/callback" and content_type == "application/x-www-form-urlencoded"
              and set(form) == {"code", "state", "iss"} and form["state"] == rp.state and form["iss"] == issuer,
              f"{path} {content_type} {form}")
        _, claims = rp.redeem(callback + "?" + urllib.parse.urlencode(form))
        check(f"form_post {label}: authlib validated the ID token, the same user", claims["sub"] == subject,
              claims["sub"])

    # web_message: the web app's origin must be one of the client's web origins (hosted_login.sh configures it).
    app = f"http://localhost:{catcher_port}"
    web = RelyingParty(issuer, client_id, app + "/app-callback")
    for via in ("iframe", "popup"):
        url = web.authorization_url(response_mode="web_message", prompt="none")
        driver.get(f"{app}/app?" + urllib.parse.urlencode({"via": via, "authorize": url}))
        if via == "popup":
            driver.find_element(By.ID, "popup").click()
        WebDriverWait(driver, 30).until(lambda _: driver.execute_script("return window.received.length") > 0)
        received = driver.execute_script("return window.received")
        message = received[0]
        response = (message.get("data") or {}).get("response") or {}
        check(f"web_message ({via}): one authorization_response from the issuer's origin, with code, state and iss",
              len(received) == 1 and message["origin"] == issuer.rstrip("/")
              and message["data"].get("type") == "authorization_response" and "code" in response
              and response.get("state") == web.state and response.get("iss") == issuer, str(received))
        _, claims = web.redeem(web.redirect_uri + "?" + urllib.parse.urlencode(response))
        check(f"web_message ({via}): authlib validated the ID token, the same user", claims["sub"] == subject,
              claims["sub"])
    driver.switch_to.window(driver.window_handles[0])


def check_confidential_client(driver, issuer, catcher, catcher_port, subject):
    """A confidential client (a server-side web app with a secret, RFC 6749 §2.3.1) within the live session of
    `subject`: its code comes by form_post; a redemption without the secret is invalid_client and leaves the code;
    authlib redeems it with client_secret_basic and refreshes with client_secret_post; then its own token
    (client_credentials) for the API its client grant covers, and token introspection (RFC 7662)."""
    client_id, secret = "hosted-login-server", os.environ["HOSTED_LOGIN_SERVER_SECRET"]
    callback = f"http://127.0.0.1:{catcher_port}/server-callback"
    server = RelyingParty(issuer, client_id, callback, client_secret=secret, auth_method="client_secret_basic")
    before = len(catcher.posted)
    driver.get(server.authorization_url(response_mode="form_post", prompt="none"))
    WebDriverWait(driver, 30).until(lambda _: len(catcher.posted) > before)
    path, _, form = catcher.posted[-1]
    check("confidential client: the code POSTed to its redirect URI", path == "/server-callback" and "code" in form,
          f"{path} {form}")
    bare = requests.post(server.metadata["token_endpoint"], timeout=10, data={
        "grant_type": "authorization_code", "code": form.get("code", ""), "redirect_uri": callback,
        "code_verifier": server.verifier, "client_id": client_id})
    check("confidential client: a redemption without the secret is 401 invalid_client",
          bare.status_code == 401 and bare.json().get("error") == "invalid_client", f"{bare.status_code} {bare.text}")
    token, claims = server.redeem(callback + "?" + urllib.parse.urlencode(form))
    check("confidential client: authlib redeemed the code with client_secret_basic, the same user",
          claims["sub"] == subject and claims["aud"] == client_id, str(dict(claims)))
    posted = OAuth2Session(client_id, client_secret=secret, token_endpoint_auth_method="client_secret_post")
    refreshed = posted.refresh_token(server.metadata["token_endpoint"], refresh_token=token["refresh_token"])
    check("confidential client: authlib refreshed with client_secret_post",
          bool(refreshed.get("access_token")) and refreshed.get("refresh_token") != token["refresh_token"],
          str(refreshed.keys()))
    # Its own token (client_credentials, RFC 6749 §4.4) for the API its client grant covers, verified with the JWKS.
    machine = OAuth2Session(client_id, client_secret=secret, token_endpoint_auth_method="client_secret_basic")
    own = machine.fetch_token(server.metadata["token_endpoint"], grant_type="client_credentials",
                              audience="https://jobs.example.test/")
    claims = JsonWebToken(["RS256", "ES256"]).decode(own["access_token"], server.keys)
    claims.validate(leeway=5)
    check("client_credentials: authlib got an access token for the API, the grant's scope, no refresh or ID token",
          own.get("scope") == "jobs:run" and "refresh_token" not in own and "id_token" not in own
          and claims["aud"] == "https://jobs.example.test/" and claims["sub"] == f"{client_id}@clients"
          and claims["gty"] == "client-credentials" and claims["iss"] == issuer, f"{own} {dict(claims)}")
    # Token introspection (RFC 7662) through authlib: the machine's token (the API names this client among its
    # introspection_clients) and the user's access token of the code flow (its own), which its refresh token's
    # revocation (RFC 7009) ends at once.
    introspection = server.metadata["introspection_endpoint"]
    own_state = machine.introspect_token(introspection, token=own["access_token"]).json()
    check("introspection: the machine's token is active, its client and API named",
          own_state.get("active") is True and own_state.get("sub") == f"{client_id}@clients"
          and own_state.get("aud") == "https://jobs.example.test/", str(own_state))
    user_state = machine.introspect_token(introspection, token=refreshed["access_token"]).json()
    check("introspection: the user's access token is active, the same user",
          user_state.get("active") is True and user_state.get("sub") == subject, str(user_state))
    # RFC 9701: the same answer as a JWT the issuer signed, asked for by Accept and checked by authlib with the JWKS
    # (signature, iss, aud, iat) and its typ.
    signed = requests.post(introspection, timeout=10, auth=(client_id, secret),
                           headers={"Accept": "application/token-introspection+jwt"},
                           data={"token": refreshed["access_token"]})
    algorithms = server.metadata.get("introspection_signing_alg_values_supported", [])
    decoded = JsonWebToken(algorithms).decode(signed.text, server.keys, claims_options={
        "iss": {"essential": True, "value": issuer}, "aud": {"essential": True, "value": client_id},
        "iat": {"essential": True}})
    decoded.validate(leeway=5)
    check("introspection (RFC 9701): a JWT signed by the issuer's RS256 key, typed token-introspection+jwt, the same "
          "answer", signed.headers.get("Content-Type") == "application/token-introspection+jwt"
          and decoded.header.get("typ") == "token-introspection+jwt" and decoded.header.get("alg") == "RS256"
          and "RS256" in algorithms and dict(decoded["token_introspection"]) == user_state,
          f"{signed.status_code} {signed.headers.get('Content-Type')} {decoded.header} {dict(decoded)}")
    machine.revoke_token(server.metadata["revocation_endpoint"], token=refreshed["refresh_token"],
                         token_type_hint="refresh_token")
    after = machine.introspect_token(introspection, token=refreshed["access_token"]).json()
    check("introspection: after the refresh token's revocation the access token is inactive, nothing more said",
          after == {"active": False}, str(after))
    wider = requests.post(server.metadata["token_endpoint"], timeout=10, auth=(client_id, secret), data={
        "grant_type": "client_credentials", "audience": "https://jobs.example.test/", "scope": "jobs:admin"})
    check("client_credentials: a scope outside the client grant is 403 access_denied",
          wider.status_code == 403 and wider.json().get("error") == "access_denied", f"{wider.status_code} {wider.text}")


def check_private_key_jwt(metadata):
    """private_key_jwt (RFC 7523 §2.2) through authlib: the machine client's own token (client_credentials) with an
    assertion authlib signs with the client's RSA key (its public JWK in the configuration), and one assertion sent
    twice: the second is refused."""
    from authlib.oauth2.rfc7523 import PrivateKeyJWT, private_key_jwt_sign
    client_id, key = "hosted-login-machine", open(os.environ["HOSTED_LOGIN_MACHINE_KEY"]).read()
    token_endpoint = metadata["token_endpoint"]
    check("discovery: private_key_jwt and its RS256, RS384, PS256 and ES256 assertions",
          "private_key_jwt" in metadata.get("token_endpoint_auth_methods_supported", [])
          and {"RS256", "RS384", "PS256", "ES256"}
          <= set(metadata.get("token_endpoint_auth_signing_alg_values_supported", [])),
          str(metadata.get("token_endpoint_auth_methods_supported")))
    machine = OAuth2Session(client_id, key, token_endpoint_auth_method=PrivateKeyJWT(token_endpoint))
    own = machine.fetch_token(token_endpoint, grant_type="client_credentials", audience="https://jobs.example.test/")
    check("private_key_jwt: authlib's assertion got the machine client its token, the grant's scope",
          own.get("scope") == "jobs:run" and bool(own.get("access_token")) and "refresh_token" not in own, str(own))
    # PS256 (RFC 7518 §3.5) for the client whose JWK says so; refused for the one whose key is RS256.
    pss = OAuth2Session(client_id + "-pss", key, token_endpoint_auth_method=PrivateKeyJWT(token_endpoint, alg="PS256"))
    own_pss = pss.fetch_token(token_endpoint, grant_type="client_credentials", audience="https://jobs.example.test/")
    check("private_key_jwt: authlib's PS256 assertion got its token", bool(own_pss.get("access_token")), str(own_pss))
    crossed = requests.post(token_endpoint, timeout=10, data={
        "grant_type": "client_credentials", "audience": "https://jobs.example.test/",
        "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
        "client_assertion": private_key_jwt_sign(key, client_id, token_endpoint, alg="PS256")})
    check("private_key_jwt: a PS256 assertion for the client whose key is RS256 is 401 invalid_client",
          crossed.status_code == 401 and crossed.json().get("error") == "invalid_client",
          f"{crossed.status_code} {crossed.text}")
    assertion = private_key_jwt_sign(key, client_id, token_endpoint)
    if isinstance(assertion, bytes):
        assertion = assertion.decode()
    form = {"grant_type": "client_credentials", "audience": "https://jobs.example.test/",
            "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
            "client_assertion": assertion}
    first = requests.post(token_endpoint, timeout=10, data=form)
    second = requests.post(token_endpoint, timeout=10, data=form)
    check("private_key_jwt: an assertion is accepted once, then 401 invalid_client",
          first.status_code == 200 and second.status_code == 401 and second.json().get("error") == "invalid_client",
          f"{first.status_code} {second.status_code} {second.text}")


def main():
    issuer, client_id, catcher_port, related_origin, screenshot = sys.argv[1:6]
    catcher_origin = f"http://127.0.0.1:{catcher_port}"
    callback = catcher_origin + "/callback"
    signed_out = catcher_origin + "/signed-out"
    catcher = Catcher(int(catcher_port))
    rp = RelyingParty(issuer, client_id, callback)
    check_discovery(rp)

    related = requests.get(issuer + ".well-known/webauthn", timeout=10)
    check("GET /.well-known/webauthn lists the realm's related origin (WebAuthn L3 §5.11)",
          related.status_code == 200 and related.headers.get("Content-Type") == "application/json"
          and related.json().get("origins") == [related_origin], f"{related.status_code} {related.text}")

    driver = browser()
    try:
        # The virtual authenticator first (it stays with the tab), so that the page's first request finds it.
        driver.get(issuer + ".well-known/openid-configuration")
        driver.execute_cdp_cmd("WebAuthn.enable", {"enableUI": False})
        authenticator = driver.execute_cdp_cmd(
            "WebAuthn.addVirtualAuthenticator",
            {"options": {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
                         "hasUserVerification": True, "isUserVerified": True, "automaticPresenceSimulation": True}},
        )["authenticatorId"]

        # Sign-up: the hosted page, an identifier, the passkey-signup button, a ceremony, the redirect.
        driver.get(rp.authorization_url())
        WebDriverWait(driver, 10).until(lambda _: driver.find_elements(By.ID, "passkey-signup"))
        check("the hosted page has passkey-login, identifier and passkey-signup",
              all(driver.find_elements(By.ID, name) for name in ("passkey-login", "identifier", "passkey-signup")))
        email = f"hosted-{uuid.uuid4().hex[:12]}@example.com"
        driver.find_element(By.ID, "identifier").send_keys(email)
        driver.find_element(By.ID, "passkey-signup").click()
        url = wait_for_redirect(driver, callback)
        check_callback(rp, url, callback, "sign-up")
        token, claims = rp.redeem(url)
        check("sign-up: authlib validated the ID token (JWKS signature, iss, aud, nonce, exp)", True)
        check("sign-up: the ID token names the new user's email", claims.get("email") == email, str(dict(claims)))
        check("sign-up: the ID token has auth_time and amr",
              isinstance(claims.get("auth_time"), int) and bool(claims.get("amr")), str(dict(claims)))
        subject = claims["sub"]
        _, credentials = sign_count(driver, authenticator)
        check("sign-up: one resident credential in the authenticator",
              len(credentials) == 1 and credentials[0]["isResidentCredential"], str(credentials))

        # A second redemption of the same code: invalid_grant (RFC 6749 §4.1.2).
        code = query(url)["code"]
        again = requests.post(rp.metadata["token_endpoint"], timeout=10, data={
            "grant_type": "authorization_code", "code": code, "redirect_uri": callback,
            "code_verifier": rp.verifier, "client_id": client_id})
        check("a second redemption of the code is invalid_grant",
              400 <= again.status_code < 500 and again.json().get("error") == "invalid_grant",
              f"{again.status_code} {again.text}")

        # The login session cookie (HttpOnly, SameSite=Lax; not Secure on a plain-HTTP localhost issuer).
        driver.get(issuer + ".well-known/openid-configuration")
        cookies = {cookie["name"]: cookie for cookie in driver.get_cookies()}
        session = cookies.get("passkeyd_session") or cookies.get("__Host-passkeyd_session")
        check("the login session cookie is set, HttpOnly and SameSite=Lax",
              session is not None and session.get("httpOnly") and session.get("sameSite") == "Lax", str(cookies))

        # Sign-in with the button: prompt=login shows the page although a session is live. Chromium's virtual
        # authenticator answers a conditional (autofill) request by itself once it holds a credential, so this page
        # load runs as in a browser without conditional mediation (the page then waits for the button).
        no_autofill = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
            "source": "PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);"})
        driver.get(rp.authorization_url(prompt="login"))
        WebDriverWait(driver, 10).until(lambda _: driver.find_elements(By.ID, "passkey-login"))
        driver.save_screenshot(screenshot)
        driver.find_element(By.ID, "passkey-login").click()
        url = wait_for_redirect(driver, callback)
        check_callback(rp, url, callback, "sign-in (passkey-login)")
        token, claims = rp.redeem(url)
        check("sign-in: authlib validated the ID token, the same user", claims["sub"] == subject, claims["sub"])
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": no_autofill["identifier"]})

        # Sign-in through conditional mediation: the page's autofill request, answered by the virtual authenticator.
        driver.get(rp.authorization_url(prompt="login"))
        url = wait_for_redirect(driver, callback)
        check_callback(rp, url, callback, "sign-in (conditional mediation)")
        token, claims = rp.redeem(url)
        check("sign-in (conditional mediation): the same user", claims["sub"] == subject, claims["sub"])
        count_after_login, _ = sign_count(driver, authenticator)
        refreshed = rp.session.refresh_token(rp.metadata["token_endpoint"], refresh_token=token["refresh_token"])
        check("sign-in: authlib refreshes the tokens (offline_access)",
              bool(refreshed.get("access_token")) and refreshed.get("refresh_token") != token["refresh_token"],
              str(refreshed.keys()))

        # A silent /authorize in the same browser session: a code at once, no page, no ceremony.
        pages_before = len(catcher.received)
        driver.get(rp.authorization_url())
        url = wait_for_redirect(driver, callback)
        check_callback(rp, url, callback, "silent /authorize")
        count, _ = sign_count(driver, authenticator)
        check("silent /authorize: no ceremony ran (the authenticator signed nothing)", count == count_after_login,
              f"{count_after_login} -> {count}")
        # (The browser's own /favicon.ico requests aside.)
        arrivals = [path for path in catcher.received[pages_before:] if not path.startswith("/favicon")]
        check("silent /authorize: the browser went straight to the redirect URI, once",
              len(arrivals) == 1 and arrivals[0].startswith("/callback?code="), str(arrivals))
        token, silent = rp.redeem(url)
        check("silent /authorize: the same user, the same auth_time",
              silent["sub"] == subject and silent.get("auth_time") == claims.get("auth_time"), str(dict(silent)))

        check_response_modes(driver, rp, catcher, callback, subject, issuer, client_id, catcher_port)
        check_confidential_client(driver, issuer, catcher, catcher_port, subject)
        check_private_key_jwt(rp.metadata)

        # Logout without id_token_hint: the OP must ask first (RP-Initiated Logout 1.0 §2). "Stay signed in" posts
        # the form and the browser is redirected to the post-logout URI (the page's CSP form-action lets it), the
        # session kept.
        stay_state = secrets.token_urlsafe(8)
        driver.get(rp.metadata["end_session_endpoint"] + "?" + urllib.parse.urlencode({
            "client_id": client_id, "post_logout_redirect_uri": signed_out, "state": stay_state}))
        WebDriverWait(driver, 10).until(lambda _: driver.find_elements(By.ID, "stay-signed-in"))
        check("logout without id_token_hint: the page asks (Sign out / Stay signed in)",
              bool(driver.find_elements(By.ID, "confirm-logout")) and "Sign out?" in driver.title, driver.title)
        driver.find_element(By.ID, "stay-signed-in").click()
        url = wait_for_redirect(driver, signed_out)
        check("logout question, Stay signed in: back at the post-logout URI with the state",
              query(url).get("state") == stay_state, url)
        driver.get(rp.authorization_url(prompt="none"))
        url = wait_for_redirect(driver, callback)
        check("logout question, Stay signed in: the session still gives a code", "code" in query(url), url)
        rp.redeem(url)

        # Logout through end_session_endpoint (OIDC RP-Initiated Logout 1.0 §2) with the session's user's ID token:
        # no question, back to the post-logout URI.
        logout_state = secrets.token_urlsafe(8)
        driver.get(rp.metadata["end_session_endpoint"] + "?" + urllib.parse.urlencode({
            "id_token_hint": token["id_token"], "client_id": client_id, "post_logout_redirect_uri": signed_out,
            "state": logout_state}))
        url = wait_for_redirect(driver, signed_out)
        check("logout: redirected to the post-logout URI with the state",
              query(url).get("state") == logout_state, url)
        driver.get(issuer + ".well-known/openid-configuration")
        names = {cookie["name"] for cookie in driver.get_cookies()}
        check("logout: the login session cookie is gone",
              not {"passkeyd_session", "__Host-passkeyd_session"} & names, str(names))

        # prompt=none without a session: error=login_required at the redirect URI (OIDC Core §3.1.2.6).
        driver.get(rp.authorization_url(prompt="none"))
        url = wait_for_redirect(driver, callback)
        parameters = query(url)
        check("prompt=none after logout: error=login_required with the state and iss",
              parameters.get("error") == "login_required" and parameters.get("state") == rp.state
              and parameters.get("iss") == issuer and "code" not in parameters, str(parameters))

        # Auth0's connection: the page of the realm it names, signed up in by that realm's rules (a username).
        driver.get(rp.authorization_url(connection="staff"))
        WebDriverWait(driver, 10).until(lambda _: driver.find_elements(By.ID, "passkey-signup"))
        label = driver.find_element(By.CSS_SELECTOR, "label[for=identifier]").text
        check("connection=staff: the page asks for the realm's identifier (Username)", label == "Username", label)
        username = f"staff-{uuid.uuid4().hex[:12]}"
        driver.find_element(By.ID, "identifier").send_keys(username)
        driver.find_element(By.ID, "passkey-signup").click()
        url = wait_for_redirect(driver, callback)
        check_callback(rp, url, callback, "connection=staff sign-up")
        token, claims = rp.redeem(url)
        check("connection=staff: authlib validated the ID token; a new user without an email",
              claims["sub"] != subject and "email" not in claims, str(dict(claims)))
        driver.get(rp.authorization_url(connection="staff", prompt="none"))
        parameters = query(wait_for_redirect(driver, callback))
        check("connection=staff, prompt=none: the realm's session gives a code", "code" in parameters,
              str(parameters))
        driver.get(rp.authorization_url(prompt="none"))
        parameters = query(wait_for_redirect(driver, callback))
        check("default realm, prompt=none: another realm's session is no session (login_required)",
              parameters.get("error") == "login_required", str(parameters))
        # A pushed authorization request (RFC 9126): the parameters of authlib's request POSTed to the endpoint
        # discovery names, then the browser sent with client_id and request_uri only (the staff session answers).
        staff_subject = claims["sub"]
        pushed = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(
            rp.authorization_url(connection="staff", prompt="none")).query))
        par = requests.post(rp.metadata["pushed_authorization_request_endpoint"], data=pushed, timeout=10)
        check("PAR: 201 with a request_uri (RFC 9126 §2.2)",
              par.status_code == 201 and par.json().get("request_uri", "").startswith(
                  "urn:ietf:params:oauth:request_uri:"), f"{par.status_code} {par.text}")
        driver.get(rp.metadata["authorization_endpoint"] + "?" + urllib.parse.urlencode(
            {"client_id": client_id, "request_uri": par.json().get("request_uri", "")}))
        url = wait_for_redirect(driver, callback)
        check_callback(rp, url, callback, "PAR")
        token, claims = rp.redeem(url)
        check("PAR: authlib validated the ID token (the pushed nonce), the staff user", claims["sub"] == staff_subject,
              str(dict(claims)))
        driver.get(rp.authorization_url(connection="no-such-realm"))
        parameters = query(wait_for_redirect(driver, callback))
        check("an unknown connection: error=invalid_request at the redirect URI",
              parameters.get("error") == "invalid_request" and parameters.get("state") == rp.state, str(parameters))
    finally:
        driver.quit()
        catcher.close()


if __name__ == "__main__":
    run("hosted_login", main)
