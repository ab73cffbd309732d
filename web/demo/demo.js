// The passkeyd demo: a sign-up and a usernameless login through the Auth0-style endpoints of the server that
// serves this page (/passkey/register, /passkey/challenge, /oauth/token, /userinfo, /me/passkeys), then the tokens'
// claims and the user's passkeys. It logs in for the account API (`<issuer>me/`, the audience /me/… accepts; the
// token also carries the issuer's, for /userinfo).
// No build step, no library; loaded as a file so the page's Content-Security-Policy allows no inline script.
// WebAuthn's JSON forms (base64url, the options, the credential) come from webauthn-json.js, loaded first.
"use strict";

const clientID = document.querySelector('meta[name="passkeyd-client-id"]').content;
const accountAudience = document.querySelector('meta[name="passkeyd-account-audience"]').content;
const scope = "openid profile email offline_access";
const webAuthnGrant = "urn:okta:params:oauth:grant-type:webauthn";

function setStatus(state, text) {
  const status = document.getElementById("status");
  status.dataset.state = state;
  status.textContent = text;
}

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new Error(`${path}: ${response.status} ${answer.error || ""} ${answer.error_description || ""}`.trim());
  }
  return answer;
}

// The JWT payload's claims (RFC 7519 §3): shown, not verified; the server and APIs verify them.
function claims(jwt) {
  if (!jwt) return null;
  const payload = jwt.split(".")[1];
  return JSON.parse(new TextDecoder().decode(fromBase64URL(payload)));
}

async function showSession(tokens) {
  document.getElementById("access-claims").textContent = JSON.stringify(claims(tokens.access_token), null, 2);
  document.getElementById("id-claims").textContent = JSON.stringify(claims(tokens.id_token), null, 2);
  const response = await fetch("/userinfo", { headers: { Authorization: `Bearer ${tokens.access_token}` } });
  document.getElementById("userinfo").textContent = JSON.stringify(await response.json(), null, 2);
  await showPasskeys(tokens);
  document.getElementById("session").hidden = false;
  const subject = claims(tokens.access_token).sub;
  setStatus("signed-in", `Signed in as ${subject}.`);
}

// The user's passkeys, one list item each, built with textContent (a passkey's name is the user's own text).
async function showPasskeys(tokens) {
  const list = document.getElementById("passkeys");
  list.replaceChildren();
  const response = await fetch("/me/passkeys", { headers: { Authorization: `Bearer ${tokens.access_token}` } });
  if (!response.ok) {
    list.textContent = `GET /me/passkeys answered ${response.status}`;
    return;
  }
  for (const passkey of (await response.json()).passkeys) {
    const item = document.createElement("li");
    item.className = "passkey";
    const kind = passkey.backed_up ? "synced" : "this device only";
    item.textContent = `${passkey.name} — ${kind}, created ${passkey.created_at}`;
    list.append(item);
  }
}

async function signUp(event) {
  event.preventDefault();
  setStatus("busy", "Creating a passkey…");
  try {
    const profile = { email: document.getElementById("signup-email").value };
    const name = document.getElementById("signup-name").value;
    if (name) profile.name = name;
    const start = await post("/passkey/register", { client_id: clientID, user_profile: profile });
    const credential = await navigator.credentials.create({
      publicKey: creationOptions(start.authn_params_public_key),
    });
    const tokens = await post("/oauth/token", {
      grant_type: webAuthnGrant, client_id: clientID, auth_session: start.auth_session, scope, audience: accountAudience,
      authn_response: credentialJSON(credential),
    });
    await showSession(tokens);
  } catch (error) {
    setStatus("error", `Sign-up failed: ${error.message}`);
  }
}

async function logIn() {
  setStatus("busy", "Waiting for the passkey…");
  try {
    const start = await post("/passkey/challenge", { client_id: clientID });
    const credential = await navigator.credentials.get({
      publicKey: requestOptions(start.authn_params_public_key),
    });
    const tokens = await post("/oauth/token", {
      grant_type: webAuthnGrant, client_id: clientID, auth_session: start.auth_session, scope, audience: accountAudience,
      authn_response: credentialJSON(credential),
    });
    await showSession(tokens);
  } catch (error) {
    setStatus("error", `Login failed: ${error.message}`);
  }
}

function logOut() {
  document.getElementById("session").hidden = true;
  for (const id of ["access-claims", "id-claims", "userinfo"]) document.getElementById(id).textContent = "";
  document.getElementById("passkeys").replaceChildren();
  setStatus("idle", "Not signed in.");
}

document.getElementById("signup-form").addEventListener("submit", signUp);
document.getElementById("login").addEventListener("click", logIn);
document.getElementById("logout").addEventListener("click", logOut);
