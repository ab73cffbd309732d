#!/usr/bin/env bash
# Runs the libFuzzer targets (FuzzCBOR, FuzzAuthenticatorData, FuzzAttestationObject) for FUZZ_SECONDS each
# (default 300), seeded with the attestation objects and authenticator data of Fixtures/ceremonies.
# A crash, a trap or an AddressSanitizer report stops the run with the reproducer in build/fuzz/<target>/.
# Usage: scripts/dev/fuzz.sh [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PATH:/opt/swift/usr/bin"
seconds="${FUZZ_SECONDS:-300}"
targets=("$@")
[ "${#targets[@]}" -eq 0 ] && targets=(FuzzCBOR FuzzAuthenticatorData FuzzAttestationObject)
work=build/fuzz
mkdir -p "$work"

# Seed corpora from the recorded ceremonies (binary fields, base64url-decoded).
python3 - "$work" <<'PY'
import base64, json, os, pathlib, sys
work = pathlib.Path(sys.argv[1])
def b64(text):
    """The bytes of a base64url field; None for the recordings whose field is deliberately not base64url (the
    mutations of Fixtures/ceremonies/mutations/ include such), which seed nothing."""
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (ValueError, TypeError):
        return None
corpora = {name: work / name / "corpus" for name in ("FuzzCBOR", "FuzzAuthenticatorData", "FuzzAttestationObject")}
for path in corpora.values():
    path.mkdir(parents=True, exist_ok=True)
for index, file in enumerate(sorted(pathlib.Path("Fixtures/ceremonies").rglob("*.json"))):
    ceremony = json.loads(file.read_text())
    response = ceremony.get("response") if isinstance(ceremony, dict) else None
    body = response.get("response") if isinstance(response, dict) else None
    body = body if isinstance(body, dict) else {}
    ceremony = ceremony if isinstance(ceremony, dict) else {}
    if (blob := b64(body.get("attestationObject"))) is not None:
        (corpora["FuzzAttestationObject"] / f"seed-{index}").write_bytes(blob)
        (corpora["FuzzCBOR"] / f"seed-{index}").write_bytes(blob)
    if (blob := b64(body.get("authenticatorData"))) is not None:
        (corpora["FuzzAuthenticatorData"] / f"seed-{index}").write_bytes(blob)
    if (blob := b64(ceremony.get("credentialPublicKey"))) is not None:
        (corpora["FuzzCBOR"] / f"key-{index}").write_bytes(blob)
PY

for target in "${targets[@]}"; do
  echo "== $target: building (release, -sanitize=fuzzer,address, lld)"
  # -parse-as-library applies to every module of the build, so each fuzz product is built on its own.
  PASSKEYD_FUZZ=1 swift build -c release --product "$target" --scratch-path "$work/.build-$target" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library \
    -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
  echo "== $target: fuzzing for ${seconds}s"
  (cd "$work/$target" && "../.build-$target/release/$target" -max_total_time="$seconds" -print_final_stats=1 corpus)
done
echo "fuzz: every target ran ${seconds}s with no crash"
