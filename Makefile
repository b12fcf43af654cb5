# The two commands: `make run` and `make test`. Both install missing system packages first.
SWIFT ?= swift
BIN := .build/release/entrain

.PHONY: all deps build run test bench bench-live bench-osc beat-compare demo install uninstall man clean fuzz soak deb deb-test dist

PREFIX ?= /usr/local
DESTDIR ?=

all: build

deps:
	@scripts/install-deps.sh

# Optimised build; it also carries the compile-time real-time proof (@_noLocks on Engine.render).
# The commit goes into `entrain --version` through an untracked header (scripts/stamp-commit.sh).
build: deps
	@scripts/stamp-commit.sh
	$(SWIFT) build -c release

# Play the default alpha-band program until Ctrl-C. Extra client options: make run ARGS="--beat 6".
run: build
	@scripts/run.sh $(ARGS)

# Every test: DSP and engine measurements beside integration tests that start their own private
# dummy jackd (under a unique server name) and drive the release binary (three shards at once, see
# scripts/test.sh), and a subset of the live tests again on a private headless PipeWire through
# pw-jack (once the other shards have ended: scripts/pipewire-subset.sh). Ends with the slowest test classes and how many tests skipped
# and why (tests of peers' files in ../shared/fixtures skip when it is not beside the checkout).
# One optimised build makes both the test bundle and the binary the live tests drive (the release
# configuration with -enable-testing on our modules, so @_noLocks is proven on the code under test; the runtime
# shared, not static, for XCTest; the test targets themselves unoptimised, as they compile three
# times faster and run as fast: see Package.swift), in its own folder beside `make build`'s.
TEST_BUILD := .build-test
test: deps
	@scripts/install-deps.sh aubio-tools chromium systemd  # beat analysis against aubio; the control page in headless Chromium; systemd-analyze for the units
	@scripts/install-python-tools.sh  # python-oscquery reading our OSCQuery tree; websockets, an independent WebSocket client
	@scripts/stamp-commit.sh
	ENTRAIN_TEST_BUILD=1 $(SWIFT) build -c release --build-tests --scratch-path $(TEST_BUILD)
	@ENTRAIN_BINARY=$(CURDIR)/$(TEST_BUILD)/release/entrain TEST_BUILD_DIR=$(TEST_BUILD)/release TEST_WITH_PIPEWIRE=1 scripts/test.sh

# The file readers under libFuzzer, 2 minutes each (LIBFUZZ_SECONDS), then fed seeded
# mutations of the shipped and fixture files for 15 minutes (FUZZ_SECONDS, FUZZ_SEED).
# make test feeds the seeded mutations for 48 s; CI (.ci/run) then gives libFuzzer 8 s a reader.
fuzz: build
	@scripts/libfuzz.sh $${LIBFUZZ_SECONDS:-120}
	env FUZZ_SECONDS=$${FUZZ_SECONDS:-900} $(SWIFT) test --filter 'ParserFuzzTests|FuzzFindingTests|HugeInputTests'

# 30 minutes of a live client under load on a private dummy jackd, with two server restarts,
# re-patching and period changes (SOAK_MINUTES changes the length). Not part of make test.
soak: build
	@scripts/soak.sh $${SOAK_MINUTES:-30}

# The engine's own figures, then `entrain render` against SBaGenX built from SBAGENX_SRC (a
# checkout of its source) when given: see scripts/bench-sbagenx.sh.
bench: build
	$(BIN) bench
	@scripts/bench-sbagenx.sh

# The whole live client on a private realtime dummy jackd: first the CPU a user sees in `top`
# (the whole process beside a bare C JACK client: pinned, pinned with pixel outputs, defaults and
# stopped, at 64 and 256 frames: PERIODS, CONFIGS, SECONDS_TO_RUN, RUNS; scripts/bench-cpu.sh),
# then JACK's DSP load, our slowest callback and memory (PERIOD=32|64 LIVE_SECONDS=600;
# scripts/bench-live.sh).
bench-live: build
	@scripts/bench-cpu.sh
	@SECONDS_TO_RUN=$${LIVE_SECONDS:-60} scripts/bench-live.sh

# 10,000 OSC messages/s for 60 s into a live client on a private dummy jackd.
bench-osc: build
	@scripts/bench-osc.sh

# Beat analysis against aubio on the synthesized corpus: the README's table.
beat-compare: build
	@scripts/install-deps.sh aubio-tools
	$(BIN) beat-eval --aubio

# 30 s of each shipped ambient preset (presets/ambient, the Kessho web app's format) into out/ (not
# committed), to listen to, and a mix with entrainment and stems; the Kessho app's own presets too
# when ../shared/fixtures is beside the checkout. One fixed seed and start time: everyone hears the same chords.
DEMO_PRESETS ?= $(wildcard presets/ambient/*.json) \
	$(filter-out %/manifest.json,$(wildcard ../shared/fixtures/kessho-presets/*.json))
DEMO_RENDER = $(BIN) render --seed 1 --start-time 2026-02-02T14:00:00Z --duration 30 --format 24
demo: build
	@mkdir -p out
	@for p in $(DEMO_PRESETS); do \
		echo "out/$$(basename $$p .json).wav"; \
		$(DEMO_RENDER) --ambient-preset $$p --out out/$$(basename $$p .json).wav || exit 1; \
	done
	@$(DEMO_RENDER) --ambient-preset presets/ambient/Tidal_Glass.json --carrier 200 --beat 6 --volume 0.25 \
		--noise pink --noise-level 0.1 --stems out/stems --out out/Tidal_Glass+theta.wav

# The binary, man pages, shell completions and the shipped sessions, patterns and ambient presets
# under $(DESTDIR)$(PREFIX) (see scripts/install.sh for where each goes); `make uninstall` removes them.
install: build
	@scripts/install.sh "$(DESTDIR)" "$(PREFIX)"

uninstall:
	@scripts/install.sh --uninstall "$(DESTDIR)" "$(PREFIX)"

# The Debian package dist/entrain_VERSION_ARCH.deb, Swift runtime inside, read by lintian; deb-test
# installs it into a cached Debian 12 root without Swift and plays, renders, serves the page and
# removes it there (needs root and the Debian mirror; minutes, so not part of make test).
# dist adds the source tarball beside it. docs/install.md.
deb: build
	@scripts/install-deps.sh lintian
	@scripts/make-deb.sh

deb-test: deb
	@scripts/install-deps.sh debootstrap
	@scripts/deb-test.sh

dist: deb
	@scripts/make-dist.sh

# Regenerate the committed man pages in man/ after changing an option or an address.
man: build
	$(BIN) manual --out man

clean:
	rm -rf .build dist
