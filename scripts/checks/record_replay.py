#!/usr/bin/env python3
"""Record mode end to end: `passkeyd serve --record DIR`, ceremonies good and tampered, then `passkeyd replay DIR`.

Starts the daemon itself (a free loopback port, a temporary data directory, the default configuration with
`passkeys.user_verification` = `required`) with `--record` naming a directory that does not exist yet, and drives
through its Auth0-style API, with an authenticator built here on soft-webauthn's key pair (so the UV flag can be
set or left out), sign-ups and logins:

  sign-ups: good; UV missing; wrong origin; wrong challenge; a malformed attestationObject
  logins:   good; bad signature (another key); wrong challenge; wrong origin; UV missing; a counter that does not
            grow; a foreign userHandle; a second good login; an unknown credential (refused before the verifier:
            not recorded)

Then it stops the daemon (SIGTERM: queued recordings are written before it exits) and checks: the directory was
created 0700 and each recording 0600; one recording per judged ceremony, named by its outcome; no recording holds
an email, an auth_session or a token the run saw; `passkeyd replay DIR` passes every recording (and its refusals
carry the codes the server answered with). Then a second daemon with the smallest caps (recording.max_bytes 1 MiB,
recording.max_file_bytes 16 KiB) takes one padded sign-up past the file cap and a hundred under it: each is answered
as without the caps, the oversized one is not written, the oldest recordings are deleted so that the directory
stays within its cap with the latest kept, the log says so in one line each, and what is kept replays. Last, the
daemon must refuse to start on a recording directory with mode 0755, with one line naming the directory. Exits 0
when every check passes, 1 otherwise. Usage:

    record_replay.py PASSKEYD_BINARY
"""
import hashlib
import json
import os
import shutil
import signal
import socket
import stat
import struct
import subprocess
import sys
import tempfile
import time

import soft_webauthn
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from fido2 import cbor

import passkeyd_http
from independent_client import WEBAUTHN_GRANT, login_options, registration_json
from passkeyd_http import Client, b64url, check, refused, request, run, unb64url

ORIGIN = "http://localhost:8080"
EVIL = "https://evil.example"
CLIENT = "demo-native-app"
FLAG_UP, FLAG_UV, FLAG_AT = 0x01, 0x04, 0x40


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(binary, work, port, record, name="server", settings=None):
    log = open(os.path.join(work, f"{name}.log"), "wb")
    env = dict(os.environ, PASSKEYD_ISSUER=f"http://127.0.0.1:{port}/", PASSKEYD_ADMIN_LISTEN="", **(settings or {}))
    server = subprocess.Popen(
        [binary, "serve", "--config", "Config/passkeyd.json", "--port", str(port), "--data-dir",
         os.path.join(work, f"{name}-data"), "--record", record], env=env, stdout=log, stderr=log)
    for _ in range(100):
        try:
            status, _, _ = request("GET", f"http://127.0.0.1:{port}/readyz", timeout=1)
            if status == 200:
                return server
        except OSError:
            pass
        if server.poll() is not None:
            break
        time.sleep(0.1)
    return server


class Authenticator:
    """One ES256 credential (soft-webauthn's key pair), with the flags and counter each ceremony asks for."""

    def __init__(self):
        self.device = soft_webauthn.SoftWebauthnDevice()

    def create(self, options, origin=ORIGIN, challenge=None, uv=True):
        public_key = {
            "rp": options["rp"], "user": dict(options["user"], id=unb64url(options["user"]["id"])),
            "challenge": challenge or unb64url(options["challenge"]),
            "pubKeyCredParams": options["pubKeyCredParams"],
        }
        credential = self.device.create({"publicKey": public_key}, origin)
        attestation = cbor.decode(credential["response"]["attestationObject"])
        auth_data = bytearray(attestation["authData"])
        # "none" attestation signs nothing, so the UV flag can be set after the fact (WebAuthn L3 §8.7).
        auth_data[32] = FLAG_AT | FLAG_UP | (FLAG_UV if uv else 0)
        attestation["authData"] = bytes(auth_data)
        credential["response"]["attestationObject"] = cbor.encode(attestation)
        return registration_json(credential)

    def get(self, options, origin=ORIGIN, challenge=None, uv=True, counter=1, key=None, user_handle=None):
        client_data = json.dumps({
            "type": "webauthn.get", "challenge": b64url(challenge or unb64url(options["challenge"])),
            "origin": origin}).encode()
        flags = FLAG_UP | (FLAG_UV if uv else 0)
        auth_data = hashlib.sha256(options["rpId"].encode()).digest() + bytes([flags]) + struct.pack(">I", counter)
        signer = key or self.device.private_key
        signature = signer.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64url(self.device.credential_id), "rawId": b64url(self.device.credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(client_data), "authenticatorData": b64url(auth_data),
                "signature": b64url(signature),
                "userHandle": b64url(user_handle if user_handle is not None else self.device.user_handle),
            },
        }


def stop(server):
    """SIGTERM: the daemon writes its queued recordings, then exits."""
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()


def capped(binary, work):
    """Record mode's disk caps through a second daemon with the smallest caps the configuration allows
    (recording.max_bytes 1 MiB, recording.max_file_bytes 16 KiB): sign-ups whose attestationObject is padded (each
    refused as malformed_response, and recorded with the response as sent), one past the file cap, then enough under
    it to pass the directory's cap. Every ceremony must be answered as without the caps; the oversized one is not
    written, the oldest recordings are deleted so that the directory stays within its cap and keeps the latest, the
    log says so in a few lines (not one per ceremony), and what is kept still replays."""
    max_bytes, max_file_bytes, pad, count = 1_048_576, 16_384, 12_000, 100
    record = os.path.join(work, "capped")
    port = free_port()
    server = start(binary, work, port, record, name="capped", settings={
        "PASSKEYD_RECORDING_MAX_BYTES": str(max_bytes), "PASSKEYD_RECORDING_MAX_FILE_BYTES": str(max_file_bytes)})
    client = Client(f"http://127.0.0.1:{port}", CLIENT)
    answers = []

    def padded_sign_up(index, padding):
        status, _, answer = client.post(
            "/passkey/register", body={"client_id": CLIENT, "user_profile": {"email": f"cap{index}@example.com"}})
        if status != 200:
            answers.append((status, answer))
            return
        response = Authenticator().create(answer["authn_params_public_key"])
        response["response"]["attestationObject"] = "not*base64url" + "A" * padding
        status, _, body = client.token({
            "grant_type": WEBAUTHN_GRANT, "auth_session": answer["auth_session"], "authn_response": response,
            "scope": "openid"})
        answers.append((status, body))

    try:
        padded_sign_up(0, max_file_bytes + 1_000)
        for index in range(1, count + 1):
            padded_sign_up(index, pad)
    finally:
        stop(server)
    check(f"capped: all {count + 1} ceremonies answered 403 invalid_grant, as without the caps",
          len(answers) == count + 1 and all(refused(status, body) for status, body in answers),
          str([a for a in answers if not refused(*a)][:3]))
    files = sorted(name for name in os.listdir(record) if name.endswith(".json")) if os.path.isdir(record) else []
    sizes = [os.path.getsize(os.path.join(record, name)) for name in files]
    check(f"capped: the directory's recordings stay within recording.max_bytes ({max_bytes})",
          files and max_bytes - max_file_bytes < sum(sizes) <= max_bytes, f"{len(files)} files, {sum(sizes)} bytes")
    check(f"capped: no recording passes recording.max_file_bytes ({max_file_bytes})",
          all(size <= max_file_bytes for size in sizes), str(max(sizes or [0])))
    # Sequence numbers follow the ceremonies: 1 is the oversized one, 2 to count + 1 the others.
    sequences = [int(name.split("-")[1]) for name in files]
    check("capped: the oldest recordings were deleted, the latest kept",
          sequences == list(range(count + 2 - len(files), count + 2)), str(sequences))
    log = open(os.path.join(work, "capped.log"), encoding="utf-8", errors="replace").read().splitlines()
    full = [line for line in log if "oldest recordings are deleted" in line]
    unwritten = [json.loads(line) for line in log if "recordings not written" in line]
    check("capped: the first deletion is logged once", len(full) == 1, "\n".join(full))
    check("capped: the oversized recording is counted in one warning line",
          sum(line.get("too_large", 0) for line in unwritten) == 1 and len(unwritten) == 1
          and unwritten[0].get("level") == "warning", str(unwritten))
    replay = subprocess.run([binary, "replay", record], capture_output=True, text=True)
    lines = replay.stdout.splitlines()
    check(f"capped: passkeyd replay passes the {len(files)} recordings kept",
          replay.returncode == 0 and lines and lines[-1] == f"{len(files)} passed, 0 failed", replay.stdout[-500:])


def main():
    binary = os.path.abspath(sys.argv[1])
    work = tempfile.mkdtemp(prefix="record_replay.")
    record = os.path.join(work, "recordings")
    port = free_port()
    server = start(binary, work, port, record)
    client = Client(f"http://127.0.0.1:{port}", CLIENT)
    seen = []       # emails, auth_session values and tokens, none of which may appear in a recording
    expected = []   # (ceremony, outcome) of each judged ceremony, in order: "ok" or the refusal's code

    def grant(auth_session, response):
        seen.append(auth_session)
        status, _, answer = client.token({
            "grant_type": WEBAUTHN_GRANT, "auth_session": auth_session, "authn_response": response,
            "scope": "openid profile email offline_access"})
        for name in ("access_token", "id_token", "refresh_token"):
            if isinstance(answer, dict) and answer.get(name):
                seen.append(answer[name])
        return status, answer

    def sign_up(what, email, outcome, **tamper):
        seen.append(email)
        status, _, answer = client.post("/passkey/register", body={"client_id": CLIENT, "user_profile": {"email": email}})
        if status != 200:
            check(f"sign-up {what}: /passkey/register answers 200", False, f"{status} {answer}")
            return None
        device = Authenticator()
        malformed = tamper.pop("malformed", False)
        response = device.create(answer["authn_params_public_key"], **tamper)
        if malformed:
            response["response"]["attestationObject"] = "not*base64url"
        status, body = grant(answer["auth_session"], response)
        check(f"sign-up {what}: {'200' if outcome == 'ok' else '403 invalid_grant (' + outcome + ')'}",
              (status == 200) if outcome == "ok" else refused(status, body), f"{status} {body}")
        expected.append(("registration", outcome))
        return device

    def log_in(what, device, outcome, recorded=True, **tamper):
        options, auth_session = login_options(client)
        status, body = grant(auth_session, device.get(options, **tamper))
        check(f"login {what}: {'200' if outcome == 'ok' else '403 invalid_grant (' + outcome + ')'}",
              (status == 200) if outcome == "ok" else refused(status, body), f"{status} {body}")
        if recorded:
            expected.append(("authentication", outcome))

    try:
        device = sign_up("good", "rec-good@example.com", "ok")
        sign_up("without UV", "rec-nouv@example.com", "user_verification_required", uv=False)
        sign_up("from another origin", "rec-origin@example.com", "origin_mismatch", origin=EVIL)
        sign_up("with another challenge", "rec-challenge@example.com", "challenge_mismatch", challenge=os.urandom(32))
        sign_up("with a malformed attestationObject", "rec-malformed@example.com", "malformed_response",
                malformed=True)
        if device is not None:
            log_in("good", device, "ok", counter=1)
            log_in("signed by another key", device, "bad_signature", counter=2,
                   key=ec.generate_private_key(ec.SECP256R1()))
            log_in("with another challenge", device, "challenge_mismatch", counter=2, challenge=os.urandom(32))
            log_in("from another origin", device, "origin_mismatch", counter=2, origin=EVIL)
            log_in("without UV", device, "user_verification_required", counter=2, uv=False)
            log_in("with a counter that does not grow", device, "counter_not_increased", counter=1)
            log_in("with another user's handle", device, "user_handle_mismatch", counter=2, user_handle=os.urandom(16))
            log_in("again", device, "ok", counter=2)
            stranger = Authenticator()
            stranger.device.cred_init("localhost", os.urandom(16))
            # Refused by the endpoint before the verifier (no credential record): 403, and nothing recorded.
            log_in("with an unknown credential", stranger, "unknown_credential", recorded=False)
    finally:
        stop(server)
    log = open(os.path.join(work, "server.log"), encoding="utf-8", errors="replace").read()
    check("the server warned at start that record mode is on",
          any('"level":"warning"' in line and "RECORD MODE" in line for line in log.splitlines()), log[:2000])

    mode = stat.S_IMODE(os.stat(record).st_mode) if os.path.isdir(record) else None
    check("the recording directory was created 0700", mode == 0o700, oct(mode or 0))
    files = sorted(name for name in os.listdir(record) if name.endswith(".json")) if mode else []
    leftovers = [name for name in os.listdir(record) if not name.endswith(".json")] if mode else []
    check("no partial file is left", not leftovers, str(leftovers))
    modes = {name: stat.S_IMODE(os.stat(os.path.join(record, name)).st_mode) for name in files}
    check("every recording is 0600", files and all(m == 0o600 for m in modes.values()), str(modes))
    check(f"one recording per judged ceremony ({len(expected)})", len(files) == len(expected), "\n".join(files))
    # Names sort by time and sequence: the outcomes, in order, are the ones the server answered with.
    named = []
    for name in files:
        parts = name[:-len(".json")].split("-", 3)  # time, sequence, ceremony, "ok" or "refused-<code>"
        outcome = parts[3].removeprefix("refused-") if len(parts) == 4 else "?"
        named.append((parts[2] if len(parts) == 4 else name, outcome))
    check("the file names say each ceremony and its outcome, in order", named == expected,
          f"\n  named    {named}\n  expected {expected}")
    texts = {name: open(os.path.join(record, name), encoding="utf-8").read() for name in files}
    leaked = sorted({secret[:24] for secret in seen for text in texts.values() if secret and secret in text})
    check("no recording holds an email, an auth_session or a token", not leaked, str(leaked))
    fields = {"ceremony", "rpId", "origins", "challenge", "userVerificationRequired", "response", "verifyAt", "expect"}
    complete = all(fields <= set(json.loads(text)) for text in texts.values())
    logins = [json.loads(t) for t in texts.values() if json.loads(t).get("ceremony") == "authentication"]
    check("each recording has the format's fields, logins the stored key and counter",
          complete and all("credentialPublicKey" in r and "storedSignCount" in r for r in logins))

    replay = subprocess.run([binary, "replay", record], capture_output=True, text=True)
    lines = replay.stdout.splitlines()
    print("\n".join("  " + line for line in lines[-3:]))
    check(f"passkeyd replay passes all {len(files)} recordings",
          replay.returncode == 0 and lines and lines[-1] == f"{len(files)} passed, 0 failed",
          replay.stdout + replay.stderr)
    refusals = sorted(code for _, code in expected if code != "ok")
    replayed = sorted(line.rsplit("(refused: ", 1)[1].rstrip(")") for line in lines if "(refused: " in line)
    check("replay refuses each tampered ceremony with the server's code", replayed == refusals,
          f"{replayed} != {refusals}")

    capped(binary, work)

    # A recording directory others can read stops the start, with one line naming it.
    loose = os.path.join(work, "loose")
    os.mkdir(loose, 0o755)
    os.chmod(loose, 0o755)
    stopped = subprocess.run(
        [binary, "serve", "--config", "Config/passkeyd.json", "--port", str(free_port()), "--data-dir",
         os.path.join(work, "data2"), "--record", loose],
        env=dict(os.environ, PASSKEYD_ADMIN_LISTEN=""), capture_output=True, text=True, timeout=30)
    errors = [line for line in stopped.stderr.splitlines() if loose in line]
    check("a 0755 recording directory stops the start with one line naming it",
          stopped.returncode != 0 and len(errors) == 1 and "chmod 700" in errors[0], stopped.stderr)
    if passkeyd_http.failures:
        print(log[-3000:])
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    run("record_replay", main)
