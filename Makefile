# The two commands: `make run` and `make test`. Both install missing system packages first.
SWIFT ?= swift
BIN := .build/release/entrain

.PHONY: all deps build run test bench bench-osc beat-compare clean

all: build

deps:
	@scripts/install-deps.sh

# Optimised build; it also carries the compile-time real-time proof (@_noLocks on Engine.render).
build: deps
	$(SWIFT) build -c release

# Play the default alpha-band program until Ctrl-C. Extra client options: make run ARGS="--beat 6".
run: build
	@scripts/run.sh $(ARGS)

# Every test: DSP and engine measurements, then integration tests that start their own private
# dummy jackd (under a unique server name) and drive the release binary.
test: build
	@scripts/install-deps.sh aubio-tools  # the beat analysis is compared with aubio in a test
	ENTRAIN_BINARY=$(CURDIR)/$(BIN) $(SWIFT) test

bench: build
	$(BIN) bench

# 10,000 OSC messages/s for 60 s into a live client on a private dummy jackd.
bench-osc: build
	@scripts/bench-osc.sh

# Beat analysis against aubio on the synthesized corpus: the README's table.
beat-compare: build
	@scripts/install-deps.sh aubio-tools
	$(BIN) beat-eval --aubio

clean:
	rm -rf .build
