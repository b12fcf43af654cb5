#!/usr/bin/env bash
# Runs the whole test suite (the command is given as arguments, e.g. `swift test`), then says how
# many tests skipped and why: on a clone without ../shared/fixtures beside it, the tests of peers'
# third-party files skip (their licences keep them out of the repository). Exits with the suite's status,
# or 1 when a test skipped for anything else: what the set-up installs (JACK, aubio, chromium, cc)
# must be there, or integration tests would pass by not running.
set -o pipefail
log=$(mktemp)
trap 'rm -f "$log"' EXIT

"$@" 2>&1 | tee "$log"
status=$?

# XCTest prints "FILE:LINE: Suite.test : Test skipped - REASON" for each skip.
skipped=$(grep -E ' : Test skipped - ' "$log" | sed -E 's/^.*: ([A-Za-z0-9_]+\.[A-Za-z0-9_]+) : Test skipped - (.*)$/\1\t\2/' | sort -u)
total=$(grep -E "^Test Suite 'All tests' (passed|failed)" -A1 "$log" | grep -oE 'Executed [0-9]+ tests' | grep -oE '[0-9]+' | tail -1)
echo
if [ -z "$skipped" ]; then
    echo "make test: ${total:-?} tests, none skipped"
else
    echo "make test: $(printf '%s\n' "$skipped" | wc -l) of ${total:-?} tests skipped:"
    # One block per reason, then the tests that gave it.
    printf '%s\n' "$skipped" | awk -F'\t' '
        { tests[$2] = tests[$2] "    " $1 "\n"; count[$2]++ }
        END { for (reason in tests) { printf "  %d skipped: %s\n%s", count[reason], reason, tests[reason] } }'
fi
# Skips that say nothing about our code: the peers' files are absent, or the machine has no
# network address besides loopback, or cannot loop multicast back to itself, or a test for
# PipeWire's JACK in the jackd run (scripts/test-pipewire.sh runs those).
unexpected=$(printf '%s\n' "$skipped" | grep -v -e 'is not beside this checkout' -e 'no non-loopback IPv4 address' -e 'cannot carry multicast to itself' \
    -e "PipeWire's JACK only" | grep . || true)
if [ "$status" -eq 0 ] && [ -n "$unexpected" ]; then
    echo "make test: FAILED: tests skipped for a reason the set-up should have removed:"
    printf '%s\n' "$unexpected" | sed 's/^/    /'
    exit 1
fi
exit $status
