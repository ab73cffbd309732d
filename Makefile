# passkeyd — the two commands of the README are `make run` and `make test`; `make check` is the shorter loop while
# working on the Swift code.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
SWIFT ?= swift
# Warnings are errors everywhere we build (CI included).
SWIFT_FLAGS := -Xswiftc -warnings-as-errors

.PHONY: deps build release run test check bench bench-ab fuzz format lint clean

deps:
	@scripts/dev/install-deps.sh build

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

release: deps
	$(SWIFT) build -c release $(SWIFT_FLAGS) --product passkeyd

## Set everything up and run the server on Config/passkeyd.json with its embedded SQLite database.
run: release
	.build/release/passkeyd serve --config Config/passkeyd.json

## Set everything up and run every test.
test:
	@scripts/dev/install-deps.sh test
	scripts/dev/test.sh

## The lint, the build with warnings as errors and the Swift test suites (a throwaway PostgreSQL for the suites that
## need one), without the checks that use independent tools; `make test` is the whole run, the one CI runs.
check:
	@scripts/dev/install-deps.sh check
	scripts/dev/test.sh swift

## Benchmarks (release build); results go to docs/benchmarks.md.
bench:
	@scripts/dev/install-deps.sh bench
	scripts/bench/bench.sh

## An A/B of two builds in one run, OLD (default 53ef89a) against NEW (default HEAD), BENCH_ROUNDS paired rounds
## (default 5) of verification and logins; results go to docs/benchmarks-ab.md. Builds in build/ab, not here.
bench-ab:
	@scripts/dev/install-deps.sh bench
	scripts/bench/ab.sh "$(OLD)" "$(NEW)"

## libFuzzer targets, 5 minutes each by default (FUZZ_SECONDS=N to change).
fuzz: deps
	scripts/dev/fuzz.sh

## Formats every Swift file in place with `swift format` (the toolchain's; configuration in .swift-format).
format:
	$(SWIFT) format format --in-place --recursive --parallel Sources Tests Package.swift

## Fails on any formatting finding (`make test` runs this first).
lint:
	$(SWIFT) format lint --strict --recursive --parallel Sources Tests Package.swift

clean:
	rm -rf .build build
