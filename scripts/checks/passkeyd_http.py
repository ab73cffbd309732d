"""What the Python checks in scripts/checks/ share: HTTP to passkeyd with JSON or form bodies and JSON answers,
base64url, and the `ok`/`FAIL` lines each check prints with its tally.

Standard library only (http.client, json, base64): it shares no code with passkeyd, and the checks that run on the
system's python3 (node_kill.py, postgres_faults.py) import it as well as those in build/venv. A check imports it
from its own folder (Python puts a script's folder first on sys.path) and runs its main through it:

    from passkeyd_http import Client, check, run
    ...
    if __name__ == "__main__":
        run("dpop_client", main)   # prints "dpop_client: N passed, M failed"; exits 1 when a check failed
"""
import base64
import http.client
import json
import sys
import urllib.parse

# The name printed before each check: the running check's (`run` sets it).
program = "check"
passed = 0
failures = 0


def check(description, condition, detail=""):
    """Counts one check and prints `<program>: ok   description`, or `FAIL description detail`."""
    global failures, passed
    if condition:
        passed += 1
        print(f"{program}: ok   {description}")
    else:
        failures += 1
        print(f"{program}: FAIL {description} {detail}".rstrip())


def run(name, main):
    """Runs `main` as the check `name`, counts an exception escaping it as a failed check, prints the tally and
    exits: 0 when every check passed, 1 otherwise."""
    global failures, program
    program = name
    try:
        main()
    except Exception as error:  # report, then fail
        failures += 1
        print(f"{program}: FAIL unexpected {error!r}")
    print(f"{program}: {passed} passed, {failures} failed")
    sys.exit(1 if failures else 0)


def b64url(data):
    """base64url without padding (RFC 4648 §5, as WebAuthn and JOSE write it)."""
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def request(method, url, body=None, form=None, headers=None, timeout=10):
    """(status, headers, parsed JSON or None) of one request; raises OSError (or http.client.HTTPException) when no
    answer comes within `timeout` s. `body` is sent as JSON, `form` as application/x-www-form-urlencoded; `headers`
    is a dict or a list of (name, value) pairs, sent as given (a name may repeat, as a check of duplicated headers
    needs). One connection per request, closed once the answer is read."""
    fields = list(headers.items()) if isinstance(headers, dict) else list(headers or [])
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        fields.append(("Content-Type", "application/json"))
    elif form is not None:
        data = urllib.parse.urlencode(form).encode()
        fields.append(("Content-Type", "application/x-www-form-urlencoded"))
    address = urllib.parse.urlsplit(url)
    kind = http.client.HTTPSConnection if address.scheme == "https" else http.client.HTTPConnection
    connection = kind(address.hostname, address.port, timeout=timeout)
    try:
        connection.putrequest(method, (address.path or "/") + (f"?{address.query}" if address.query else ""))
        if data is not None:
            fields.append(("Content-Length", str(len(data))))
        for name, value in fields:
            connection.putheader(name, value)
        connection.endheaders(data)
        response = connection.getresponse()
        raw = response.read()
    finally:
        connection.close()
    try:
        parsed = json.loads(raw) if raw else None
    except ValueError:
        parsed = None
    return response.status, response.headers, parsed


def attempt(method, url, **options):
    """`request`, with a request that got no answer (a refused or dropped connection, a timeout) reported in the
    status as "no answer (<exception>)", for the checks under load that judge such outcomes rather than stop."""
    try:
        return request(method, url, **options)
    except Exception as error:  # whatever kept the answer away is the outcome to judge
        return f"no answer ({type(error).__name__})", None, None


def get_json(url, timeout=10):
    """The JSON document at `url` (discovery, a JWKS); raises unless the answer is 200."""
    status, _, document = request("GET", url, timeout=timeout)
    if status != 200:
        raise RuntimeError(f"GET {url} answered {status}")
    return document


def refused(status, answer):
    """Whether a token request's grant was refused: 403 invalid_grant, as passkeyd answers it (docs/api.md)."""
    return status == 403 and isinstance(answer, dict) and answer.get("error") == "invalid_grant"


class Client:
    """One client of one passkeyd node: its base URL and client_id."""

    def __init__(self, base, client_id):
        self.base = base.rstrip("/")
        self.client_id = client_id

    def send(self, method, path, body=None, form=None, headers=None, timeout=10):
        return request(method, self.base + path, body=body, form=form, headers=headers, timeout=timeout)

    def post(self, path, body=None, form=None, headers=None, timeout=10):
        return self.send("POST", path, body=body, form=form, headers=headers, timeout=timeout)

    def token(self, fields, form=False, headers=None, timeout=10):
        """POST /oauth/token with `fields` and this client's client_id, as JSON or (form=True) form-encoded, a
        member that is an object then sent as its JSON text."""
        fields = dict(fields, client_id=self.client_id)
        if form:
            encoded = {k: json.dumps(v) if isinstance(v, dict) else v for k, v in fields.items()}
            return self.post("/oauth/token", form=encoded, headers=headers, timeout=timeout)
        return self.post("/oauth/token", body=fields, headers=headers, timeout=timeout)
