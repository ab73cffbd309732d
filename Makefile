# passkeyd — the two commands of the README are `make run` and `make test`.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
SWIFT ?= swift
# Warnings are errors everywhere we build (CI included).
SWIFT_FLAGS := -Xswiftc -warnings-as-errors

.PHONY: deps build release run test bench fuzz format lint clean

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

## Benchmarks (release build); results go to docs/benchmarks.md.
bench:
	@scripts/dev/install-deps.sh bench
	scripts/bench/bench.sh

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
