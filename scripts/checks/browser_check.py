#!/usr/bin/env python3
"""A real browser against passkeyd's demo web app (web.demo): Debian's chromium and chromedriver driven by selenium,
headless, with a WebAuthn virtual authenticator set up through the Chrome DevTools protocol (CTAP2, internal
transport, resident keys, user verification).

Checks: a sign-up and a login through the demo page, a second login (same user), a login refused with user
verification off, and CORS: a page on an allowed web origin reads /passkey/challenge, a page on another loopback
origin cannot. Writes a screenshot of the signed-in page.

Usage: browser_check.py DEMO_URL ALLOWED_ORIGIN OTHER_ORIGIN SCREENSHOT
  DEMO_URL         the daemon's /demo/ page (http://localhost:PORT/demo/)
  ALLOWED_ORIGIN   an origin in the daemon's web_origins, served by a static server (http://localhost:P2)
  OTHER_ORIGIN     an origin not in them, served by a static server (http://localhost:P3)
"""
import json
import os
import sys
import time
import uuid

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from passkeyd_http import check, run


def browser():
    # selenium-manager stays offline: the Debian chromedriver and chromium, nothing downloaded.
    os.environ["SE_OFFLINE"] = "true"
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1000,1300"):
        options.add_argument(argument)
    return webdriver.Chrome(options=options, service=Service(executable_path="/usr/bin/chromedriver"))


def wait_for_state(driver, states, seconds=20):
    """The demo page's #status data-state once it is one of `states`; its text too."""
    status = driver.find_element(By.ID, "status")
    WebDriverWait(driver, seconds).until(lambda _: status.get_attribute("data-state") in states)
    return status.get_attribute("data-state"), status.text


def claims(driver, element_id):
    return json.loads(driver.find_element(By.ID, element_id).text or "null")


def cross_origin_fetch(driver, page_origin, api_origin):
    """Runs fetch(api /passkey/challenge) from a page of `page_origin`; "ok:<status>" or "error:<message>"."""
    driver.get(page_origin + "/")
    return driver.execute_async_script(
        """
        const [url, done] = arguments;
        fetch(url, {method: "POST", headers: {"Content-Type": "application/json"},
                    body: JSON.stringify({client_id: "demo-native-app"})})
          .then(async (r) => done("ok:" + r.status + ":" + (await r.text()).length))
          .catch((e) => done("error:" + e.name + ": " + e.message));
        """,
        api_origin + "/passkey/challenge",
    )


def main():
    demo_url, allowed_origin, other_origin, screenshot = sys.argv[1:5]
    api_origin = demo_url.split("/demo/")[0]
    driver = browser()
    driver.set_script_timeout(20)
    try:
        driver.get(demo_url)
        # WebAuthn L3 §11: the virtual authenticator, through the DevTools protocol's WebAuthn domain.
        driver.execute_cdp_cmd("WebAuthn.enable", {"enableUI": False})
        authenticator = driver.execute_cdp_cmd(
            "WebAuthn.addVirtualAuthenticator",
            {"options": {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
                         "hasUserVerification": True, "isUserVerified": True, "automaticPresenceSimulation": True}},
        )["authenticatorId"]

        email = f"browser-{uuid.uuid4().hex[:12]}@example.com"
        driver.find_element(By.ID, "signup-email").send_keys(email)
        driver.find_element(By.ID, "signup-name").send_keys("Browser Test")
        driver.find_element(By.ID, "signup").click()
        state, text = wait_for_state(driver, {"signed-in", "error"})
        check("sign-up through the demo page", state == "signed-in", text)
        signup = claims(driver, "access-claims") or {}
        id_claims = claims(driver, "id-claims") or {}
        check("the ID token names the new user's email", id_claims.get("email") == email, str(id_claims))
        check("the sign-up was user-verified (amr user)", "user" in signup.get("amr", []), str(signup.get("amr")))
        userinfo = claims(driver, "userinfo") or {}
        check("/userinfo answers the token's subject", userinfo.get("sub") == signup.get("sub"), str(userinfo))
        passkeys = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#passkeys li.passkey")]
        check("the page lists the user's one passkey (GET /me/passkeys)", len(passkeys) == 1, str(passkeys))
        credentials = driver.execute_cdp_cmd("WebAuthn.getCredentials", {"authenticatorId": authenticator})
        check("one resident credential in the authenticator",
              len(credentials["credentials"]) == 1 and credentials["credentials"][0]["isResidentCredential"],
              str(credentials))
        driver.save_screenshot(screenshot)
        check(f"screenshot of the signed-in page written to {screenshot}", os.path.getsize(screenshot) > 0)

        for attempt in ("login through the demo page", "a second login"):
            driver.find_element(By.ID, "logout").click()
            driver.find_element(By.ID, "login").click()
            state, text = wait_for_state(driver, {"signed-in", "error"})
            check(attempt, state == "signed-in", text)
            login = claims(driver, "access-claims") or {}
            check(f"{attempt}: the same user", login.get("sub") == signup.get("sub"), f"{login.get('sub')}")
            check(f"{attempt}: user-verified", "user" in login.get("amr", []), str(login.get("amr")))
        sign_count = driver.execute_cdp_cmd("WebAuthn.getCredentials", {"authenticatorId": authenticator})[
            "credentials"][0]["signCount"]
        check("the authenticator signed the sign-up and both logins", sign_count >= 3, f"signCount {sign_count}")

        # User verification off: the server requires it (passkeys.user_verification), so no login.
        driver.execute_cdp_cmd("WebAuthn.setUserVerified", {"authenticatorId": authenticator, "isUserVerified": False})
        driver.find_element(By.ID, "logout").click()
        driver.find_element(By.ID, "login").click()
        state, text = wait_for_state(driver, {"signed-in", "error"}, seconds=70)
        check("a login with user verification off is refused", state == "error", text)
        print(f"browser_check: (the refusal: {text})")
        # The server's own check (WebAuthn L3 §7.2 step 17): a page that asks the browser for no user verification,
        # against the options the server gave, gets an assertion without the UV flag, which the token endpoint refuses.
        answer = driver.execute_async_script(
            """
            const done = arguments[0];
            (async () => {
              const start = await post("/passkey/challenge", {client_id: clientID});
              const options = start.authn_params_public_key;
              const credential = await navigator.credentials.get({publicKey: {
                ...options, challenge: fromBase64URL(options.challenge), userVerification: "discouraged"}});
              const response = await fetch("/oauth/token", {method: "POST",
                headers: {"Content-Type": "application/json"},
                body: JSON.stringify({grant_type: webAuthnGrant, client_id: clientID, auth_session: start.auth_session,
                  authn_response: {id: credential.id, rawId: toBase64URL(credential.rawId), type: credential.type,
                    response: {clientDataJSON: toBase64URL(credential.response.clientDataJSON),
                      authenticatorData: toBase64URL(credential.response.authenticatorData),
                      signature: toBase64URL(credential.response.signature),
                      userHandle: toBase64URL(credential.response.userHandle)}}})});
              return response.status + " " + (await response.json()).error;
            })().then(done, (e) => done("error " + e.name + ": " + e.message));
            """
        )
        check("an assertion without user verification is refused by the server", answer == "403 invalid_grant", answer)
        driver.execute_cdp_cmd("WebAuthn.setUserVerified", {"authenticatorId": authenticator, "isUserVerified": True})

        # CORS (Fetch §3.2): the allowed origin reads the answer, another origin's script cannot.
        allowed = cross_origin_fetch(driver, allowed_origin, api_origin)
        check(f"a page on the allowed origin {allowed_origin} calls passkeyd", allowed.startswith("ok:200"), allowed)
        refused = cross_origin_fetch(driver, other_origin, api_origin)
        check(f"a page on {other_origin} (not allowed) fails CORS", refused.startswith("error:TypeError"), refused)
    finally:
        driver.quit()


if __name__ == "__main__":
    run("browser_check", main)
