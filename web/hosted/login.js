// The passkeyd hosted login page: passkey-first, no password. It talks to the server that serves it through
// /u/passkey/challenge (sign-in), /u/passkey/register (sign-up) and /u/passkey/complete, each POST carrying the
// sealed authorization request (`transaction`) and the CSRF value (header X-Passkeyd-CSRF; the server compares it
// with the transaction's and with an HttpOnly cookie). On success the server answers where the authorization code
// goes: the client's redirect URI with the code in its query, or (response_mode form_post, web_message) what
// /u/response.js, loaded before this script, delivers.
// No build step, no library, no inline script (the page's Content-Security-Policy allows none). WebAuthn's JSON forms
// (base64url, the options, the credential) come from /u/webauthn-json.js, loaded first.
"use strict";

const transaction = document.querySelector('meta[name="passkeyd-transaction"]').content;
const csrf = document.querySelector('meta[name="passkeyd-csrf"]').content;
const errorRegion = document.getElementById("error");
const statusRegion = document.getElementById("status");
const buttons = [document.getElementById("passkey-login"), document.getElementById("passkey-signup")];
// The pending conditional (autofill) request, aborted before a modal one starts (WebAuthn L3 §5.1.4.1).
let conditional = null;

function showError(text) {
  errorRegion.textContent = text;
  errorRegion.hidden = false;
  statusRegion.textContent = "";
}

function setBusy(busy, text) {
  for (const button of buttons) button.disabled = busy;
  statusRegion.textContent = text || "";
  if (busy) errorRegion.hidden = true;
}

class ServerError extends Error {}

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-Passkeyd-CSRF": csrf },
    body: JSON.stringify({ transaction, ...body }),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new ServerError(answer.error_description || `The server answered ${response.status}.`);
  }
  return answer;
}

async function complete(start, credential) {
  setBusy(true, "Signing you in…");
  const answer = await post("/u/passkey/complete", {
    auth_session: start.auth_session, authn_response: credentialJSON(credential),
  });
  // response_mode=query: the redirect URI with the code; form_post and web_message: /u/response.js delivers it.
  if (answer.redirect_to) window.location.assign(answer.redirect_to);
  else deliverAuthorizationResponse(answer.authorization_response);
}

function describe(error) {
  if (error instanceof ServerError) return error.message;
  if (error && error.name === "NotAllowedError") return "The passkey request was cancelled or timed out. Try again.";
  if (error && error.name === "InvalidStateError") return "This device already has a passkey for this account. Sign in instead.";
  if (error && error.name === "SecurityError") return "Passkeys cannot be used on this address.";
  return "Something went wrong. Try again.";
}

function abortConditional() {
  if (conditional) {
    conditional.abort();
    conditional = null;
  }
}

async function signIn() {
  abortConditional();
  setBusy(true, "Waiting for your passkey…");
  try {
    const start = await post("/u/passkey/challenge", {});
    const credential = await navigator.credentials.get({ publicKey: requestOptions(start.authn_params_public_key) });
    await complete(start, credential);
  } catch (error) {
    setBusy(false);
    showError(describe(error));
  }
}

async function signUp(event) {
  event.preventDefault();
  const identifier = document.getElementById("identifier").value.trim();
  if (!identifier) {
    showError("Enter an identifier to create a passkey.");
    return;
  }
  abortConditional();
  setBusy(true, "Creating your passkey…");
  try {
    const start = await post("/u/passkey/register", { identifier });
    const credential = await navigator.credentials.create({ publicKey: creationOptions(start.authn_params_public_key) });
    await complete(start, credential);
  } catch (error) {
    setBusy(false);
    showError(describe(error));
  }
}

// Autofill: the passkeys offered in the identifier field's suggestions, where the browser supports it.
async function startConditional() {
  if (!window.PublicKeyCredential || !PublicKeyCredential.isConditionalMediationAvailable) return;
  if (!(await PublicKeyCredential.isConditionalMediationAvailable())) return;
  const controller = new AbortController();
  conditional = controller;
  try {
    const start = await post("/u/passkey/challenge", {});
    if (controller.signal.aborted) return;
    const credential = await navigator.credentials.get({
      publicKey: requestOptions(start.authn_params_public_key), mediation: "conditional", signal: controller.signal,
    });
    conditional = null;
    await complete(start, credential);
  } catch (error) {
    if (controller.signal.aborted || (error && error.name === "AbortError")) return;
    conditional = null;
    // An autofill request the browser ended without a choice (no passkey here, or dismissed) is not an error the
    // user made: the buttons stay as they were, with nothing shown.
    if (error && error.name === "NotAllowedError") return;
    setBusy(false);
    showError(describe(error));
  }
}

document.getElementById("passkey-login").addEventListener("click", signIn);
document.getElementById("signup-form").addEventListener("submit", signUp);
if (!window.PublicKeyCredential) {
  showError("This browser does not support passkeys.");
  for (const button of buttons) button.disabled = true;
} else {
  startConditional();
}
