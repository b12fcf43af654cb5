# The two commands: `make run` and `make test`. Both install missing system packages first.
SWIFT ?= swift
BIN := .build/release/entrain

.PHONY: all deps build run test bench bench-osc beat-compare demo clean

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

# 30 s of a few Kessho presets through the ambient engine, into out/ (not committed), to listen to.
# One fixed seed and start time, so everyone hears the same chords.
DEMO_PRESETS ?= StringWavesR ZoneOut1 Lasers Static_frequencies ios/Ethereal_Ambient ios/WaveOut
demo: build
	@mkdir -p out
	@for p in $(DEMO_PRESETS); do \
		$(BIN) render --ambient-preset ../shared/fixtures/kessho-presets/$$p.json --seed 1 \
			--start-time 2026-02-02T14:00:00Z --duration 30 --format 24 --out out/$$(basename $$p).wav || exit 1; \
	done
	@$(BIN) render --ambient-preset ../shared/fixtures/kessho-presets/StringWavesR.json --seed 1 \
		--start-time 2026-02-02T14:00:00Z --duration 30 --format 24 --carrier 200 --beat 6 --volume 0.25 \
		--noise pink --noise-level 0.1 --stems out/stems --out out/StringWavesR+theta.wav

clean:
	rm -rf .build
