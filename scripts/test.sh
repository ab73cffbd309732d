#!/usr/bin/env bash
# Runs every test of passkeyd: the Swift test suites (compiler warnings are errors), then the checks that
# use independent tools. Exits non-zero if anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
swift build --build-tests -Xswiftc -warnings-as-errors
# The real binary first (its summary is short); the Swift suites last, so their summary closes the output.
scripts/smoke.sh .build/debug/passkeyd
mkdir -p build
swift test --skip-build 2>&1 | tee build/swift-test.log
