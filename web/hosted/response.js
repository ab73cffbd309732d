// The authorization response's delivery by the response modes other than query (docs/hosted-login.md), for the
// pages that carry one in a data-passkeyd-authorization-response attribute (the server's answer pages) and for the login
// page's script once its ceremony completed (deliverAuthorizationResponse, answer.authorization_response):
// - form_post (OAuth 2.0 Form Post Response Mode §2): a form POSTs the parameters to the redirect URI; the answer
//   page holds that form, with a Continue button for a browser without scripts;
// - web_message: the parameters go to the window that opened this one (a popup) or framed it (silent
//   authentication), as Auth0 sends them: {type: "authorization_response", response: {...}}, to the redirect URI's
//   origin only (postMessage's targetOrigin), so no other page receives the code.
// No inline script (the pages' Content-Security-Policy allows none).
"use strict";

function deliverAuthorizationResponse(delivery) {
  if (delivery.response_mode === "form_post") {
    const form = document.createElement("form");
    form.method = "post";
    form.action = delivery.redirect_uri;
    for (const [name, value] of Object.entries(delivery.parameters)) {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      form.appendChild(input);
    }
    document.body.appendChild(form);
    form.submit();
  } else if (delivery.response_mode === "web_message") {
    const target = window.opener || (window.parent !== window ? window.parent : null);
    if (target) {
      target.postMessage({ type: "authorization_response", response: delivery.parameters }, delivery.target_origin);
    }
    const status = document.getElementById("status");
    if (status) status.textContent = "You can close this window.";
  }
}

(function deliverThisPage() {
  const form = document.querySelector("form[data-passkeyd-autosubmit]");
  if (form) {
    form.submit();
    return;
  }
  const pending = document.querySelector("[data-passkeyd-authorization-response]");
  if (pending) deliverAuthorizationResponse(JSON.parse(pending.dataset.passkeydAuthorizationResponse));
})();
