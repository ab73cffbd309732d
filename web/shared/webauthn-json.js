// WebAuthn's JSON forms in the browser, shared by the hosted login page (/u/login.js) and the demo (/demo/demo.js):
// the one place the pages turn the server's options into the browser's arguments and a credential into the JSON the
// server verifies. Loaded before the page's own script (both `defer`, so in order); no build step, no library.
"use strict";

// base64url without padding (RFC 4648 §5): the form of every binary value of WebAuthn's JSON (WebAuthn L3 §3).
function fromBase64URL(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

function toBase64URL(buffer) {
  let binary = "";
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// WebAuthn L3 §5.1.9/§5.1.10: the browser's own JSON parsing where it has it, else the binary members by hand.
function requestOptions(json) {
  if (PublicKeyCredential.parseRequestOptionsFromJSON) return PublicKeyCredential.parseRequestOptionsFromJSON(json);
  const options = { ...json, challenge: fromBase64URL(json.challenge) };
  if (json.allowCredentials) {
    options.allowCredentials = json.allowCredentials.map((c) => ({ ...c, id: fromBase64URL(c.id) }));
  }
  return options;
}

function creationOptions(json) {
  if (PublicKeyCredential.parseCreationOptionsFromJSON) return PublicKeyCredential.parseCreationOptionsFromJSON(json);
  const options = { ...json, challenge: fromBase64URL(json.challenge), user: { ...json.user, id: fromBase64URL(json.user.id) } };
  if (json.excludeCredentials) {
    options.excludeCredentials = json.excludeCredentials.map((c) => ({ ...c, id: fromBase64URL(c.id) }));
  }
  return options;
}

// WebAuthn L3 §5.1 toJSON() where the browser has it, else the members the server reads.
function credentialJSON(credential) {
  if (typeof credential.toJSON === "function") return credential.toJSON();
  const source = credential.response;
  const response = { clientDataJSON: toBase64URL(source.clientDataJSON) };
  if (source.attestationObject) {
    response.attestationObject = toBase64URL(source.attestationObject);
    if (source.getTransports) response.transports = source.getTransports();
  } else {
    response.authenticatorData = toBase64URL(source.authenticatorData);
    response.signature = toBase64URL(source.signature);
    if (source.userHandle) response.userHandle = toBase64URL(source.userHandle);
  }
  return {
    id: credential.id, rawId: toBase64URL(credential.rawId), type: credential.type, response,
    clientExtensionResults: credential.getClientExtensionResults ? credential.getClientExtensionResults() : {},
  };
}
