#!/usr/bin/env python3
"""Tampers with a passkeyd audit log the way an intruder or a database administrator could, for the tamper tests of
scripts/checks/audit_log.sh (each must then fail `passkeyd audit verify`, naming the entry). Shares no code with
passkeyd.

    audit_tamper.py triggers DB          the append-only triggers of the log and its nodes refuse UPDATE and DELETE
                                         (exit 0 if they do)
    audit_tamper.py byte DB SEQ          change one byte of entry SEQ in the database FILE itself (no SQL)
    audit_tamper.py delete DB SEQ        delete entry SEQ (triggers dropped, as an administrator could)
    audit_tamper.py reorder DB A B       swap entries A and B
    audit_tamper.py truncate DB N        keep only the first N entries
    audit_tamper.py foreign DIR          replace DIR/checkpoint with the same body signed by another Ed25519 key
"""
import base64
import hashlib
import sqlite3
import sys

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def admin(db):
    connection = sqlite3.connect(db)
    for trigger in ("audit_log_no_update", "audit_log_no_delete"):
        connection.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    return connection


def main():
    action, target, *rest = sys.argv[1:]
    if action == "triggers":
        connection = sqlite3.connect(target)
        for statement in (
            "UPDATE audit_log SET entry = x'00' WHERE leaf_index = 0",
            "DELETE FROM audit_log",
            "UPDATE audit_nodes SET hash = x'00' WHERE level = 1 AND idx = 0",
            "DELETE FROM audit_nodes",
        ):
            try:
                connection.execute(statement)
            except sqlite3.DatabaseError as error:
                assert "append-only" in str(error), error
            else:
                sys.exit(f"audit_tamper: FAIL {statement} was not refused")
        connection.rollback()
    elif action == "byte":
        seq = int(rest[0])
        data = bytearray(open(target, "rb").read())
        # Entries are canonical JSON: members sorted, so `"seq":N,"time":"…"` is unique to entry N.
        marker = b'"seq":%d,"time":"' % seq
        at = data.find(marker)
        assert at >= 0 and data.find(marker, at + 1) < 0, "entry not found once in the file"
        digit = at + len(marker) + 20  # the first millisecond digit of the time
        data[digit] = ord("0") + (data[digit] - ord("0") + 1) % 10
        open(target, "wb").write(bytes(data))
    elif action == "delete":
        connection = admin(target)
        connection.execute("DELETE FROM audit_log WHERE leaf_index = ?", (int(rest[0]),))
        connection.commit()
    elif action == "reorder":
        a, b = int(rest[0]), int(rest[1])
        connection = admin(target)
        rows = dict(connection.execute(
            "SELECT leaf_index, entry FROM audit_log WHERE leaf_index IN (?, ?)", (a, b)).fetchall())
        connection.execute("UPDATE audit_log SET entry = ? WHERE leaf_index = ?", (rows[b], a))
        connection.execute("UPDATE audit_log SET entry = ? WHERE leaf_index = ?", (rows[a], b))
        connection.commit()
    elif action == "truncate":
        connection = admin(target)
        connection.execute("DELETE FROM audit_log WHERE leaf_index >= ?", (int(rest[0]),))
        connection.commit()
    elif action == "foreign":
        note = open(f"{target}/checkpoint", encoding="utf-8").read()
        body = note[: note.rindex("\n\n") + 1]
        name = body.split("\n", 1)[0]
        key = Ed25519PrivateKey.generate()
        public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        # C2SP signed-note: key id = SHA-256(name || 0x0A || 0x01 || public key)[:4].
        key_id = hashlib.sha256(name.encode() + b"\n\x01" + public).digest()[:4]
        signature = base64.b64encode(key_id + key.sign(body.encode())).decode()
        open(f"{target}/checkpoint", "w", encoding="utf-8").write(f"{body}\n\u2014 {name} {signature}\n")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
