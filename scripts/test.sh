#!/usr/bin/env bash
# Runs the whole test suite from the built test bundle (`swift build --build-tests` first), in three
# shards at once: the live tests (IntegrationTests: real JACK servers and the real client, mostly
# waiting on audio time) in two selections beside everything else (computing on the CPU), so the
# waiting overlaps the computing, and a third selection of live tests once the computing ends.
# Prints each test class's time (slowest first), when each shard ended, then how many tests
# skipped and why: on a clone without ../shared/fixtures beside it, the tests of peers' third-party
# files skip (their licences keep them out of the repository). Exits with the suite's status, or 1
# when a test skipped for anything else: what the set-up installs (JACK, aubio, chromium, cc) must
# be there, or integration tests would pass by not running.
# TEST_WITH_PIPEWIRE=1 (make test) adds PipeWire's subset of the live tests (scripts/pipewire-subset.sh)
# under pw-jack once the other shards have ended (its own summary lines are the run's).
# TEST_SHARDS=1 runs everything in one process instead (as `swift test` does). TEST_FILTER (the
# bundle's own comma-separated list, e.g. IntegrationTests.OSCLiveTests/testX) runs only those, in
# one process. Arguments, when given, are a command the bundle runs under (scripts/test-pipewire.sh
# gives `pw-jack env ENTRAIN_TEST_SERVER=pipewire`). A test process that prints nothing for
# TEST_HANG_SECONDS (300) is stopped with what it was running named: a hang fails, it never stalls CI.
set -o pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# TEST_BUILD_DIR: where the bundle was built (make test: .build-test/release; by hand, `swift build
# --build-tests` puts it in .build/debug).
built=${TEST_BUILD_DIR:-.build/debug}
bundle=$(ls -d "$built"/*PackageTests.xctest 2>/dev/null | head -1)
[ -x "$bundle" ] || { echo "make test: no test bundle under $built (run swift build --build-tests)" >&2; exit 1; }
classes=$("$bundle" --list-tests | grep -oE '^[A-Za-z0-9_]+\.[A-Za-z0-9_]+/' | tr -d / | sort -u)
# Integration tests that start no server (they run the binary offline) compute like the unit tests.
offline='^IntegrationTests\.(AmbientRenderTests|RenderCommandTests|RenderFormatTests|SBaGenPeerTests|ValidateCommandTests|LongPeriodBeatEventTests|ReleaseTests)$'
# The live classes dealt into TEST_LIVE_SHARDS (2) selections, and a third that runs after the
# computing shard in its place: they mostly wait on audio time, so two of them beside the
# computing shard still leave the CPU room (each judges through xruns), and the third starts as
# the computing ends. The longest first, each to the selection with the least time so far, by the
# seconds a clean clone's run took (scripts/live-test-seconds.txt, where "(computing)" is the
# computing shard's; 10 s for a class not there): the run lasts as long as its longest shard.
live_shards=${TEST_LIVE_SHARDS:-2}
computing_seconds=$(awk -F'\t' '$1 == "(computing)" { print $2 }' scripts/live-test-seconds.txt)
mapfile -t live < <(grep '^IntegrationTests\.' <<<"$classes" | grep -vE "$offline" |
    awk -F'\t' '
        FNR == NR { if ($1 !~ /^#/) seconds["IntegrationTests." $1] = $2; next }
        { print (($0 in seconds) ? seconds[$0] : 10) "\t" $0 }' scripts/live-test-seconds.txt - |
    sort -t$'\t' -k1,1 -rn |
    awk -v n="$((live_shards + 1))" -v computing="${computing_seconds:-0}" -F'\t' '
        BEGIN { load[n - 1] = computing }  # the last selection: after the computing shard
        {
            best = 0
            for (i = 1; i < n; i++) if (load[i] < load[best]) best = i
            load[best] += $1
            shard[best] = shard[best] (shard[best] == "" ? "" : ",") $2
        } END { for (i = 0; i < n; i++) print shard[i] }')
after_computing=${live[$live_shards]}
unset "live[$live_shards]"
rest=$( (grep -v '^IntegrationTests\.' <<<"$classes"; grep -E "$offline" <<<"$classes") | paste -sd, -)

# Each test process gets a /dev/shm of its own where it may (root, and unshare works): jackd keeps
# its shared-memory registry there and libjack its port-metadata database (one per user, shared by
# every server), so shards running at once, and servers the tests kill, cannot touch each other's,
# nor a user's own JACK.
private_shm=()
if [ "$(id -u)" = 0 ] && unshare --mount --propagation private true 2>/dev/null; then
    private_shm=(unshare --mount --propagation private -- sh -c 'mount -t tmpfs -o mode=1777 tmpfs /dev/shm && exec "$@"' private-shm)
fi

# Runs the bundle (under the wrapper command, if any) on a selection, its output into a log, in its
# own process group; stops the group when the log has not grown for TEST_HANG_SECONDS.
watched() {
    local log=$1 selection=$2 pid size last=-1 idle=0 limit=${TEST_HANG_SECONDS:-300}
    shift 2
    setsid "${private_shm[@]}" "$@" "$bundle" ${selection:+"$selection"} > "$log" 2>&1 &
    pid=$!
    while kill -0 "$pid" 2>/dev/null; do
        sleep 1
        size=$(stat -c %s "$log")
        if [ "$size" = "$last" ]; then idle=$((idle + 1)); else idle=0; last=$size; fi
        if [ "$idle" -ge "$limit" ]; then
            echo "make test: FAILED: no output for $idle s, stopped while running: $(grep -E "^Test Case '.*' started" "$log" | tail -1)" | tee -a "$log" >&2
            kill -TERM -- -"$pid" 2>/dev/null; sleep 5; kill -KILL -- -"$pid" 2>/dev/null
            break
        fi
    done
    wait "$pid"
    local status=$?
    kill -TERM -- -"$pid" 2>/dev/null  # what the tests started and left behind (a crashed bundle's servers)
    return $status
}
wrapper=("$@")

if [ "${TEST_WITH_PIPEWIRE:-0}" = 1 ] && ! command -v pw-jack >/dev/null; then
    echo "make test: pw-jack is missing (scripts/install-deps.sh installs pipewire-jack)" >&2; exit 1
fi
started=$(date +%s)
: > "$work/all.log"  # before tail follows it
if [ -n "${TEST_FILTER:-}" ] || [ "${TEST_SHARDS:-2}" = 1 ]; then
    watched "$work/all.log" "${TEST_FILTER:-}" "${wrapper[@]}" &
    pid=$!
    tail -n +1 -f --pid="$pid" "$work/all.log" 2>/dev/null
    wait "$pid"
    status=$?
else
    # Every shard runs at once; the first live one is printed as it goes, the others when they end.
    # The computing shard, then the live selection dealt to follow it (its log kept apart until
    # then: the summary reads every *.log at the end). Each shard says how long it took.
    : > "$work/rest.log"
    ( watched "$work/rest.log" "$rest" "${wrapper[@]}"; status=$?
      echo "make test: the computing shard took $(( $(date +%s) - started )) s" >> "$work/rest.log"
      if [ -n "$after_computing" ]; then
          watched "$work/rest.log.live" "$after_computing" "${wrapper[@]}" || status=$?
          cat "$work/rest.log.live" >> "$work/rest.log"; rm -f "$work/rest.log.live"
          echo "make test: the live tests after it ended at $(( $(date +%s) - started )) s" >> "$work/rest.log"
      fi
      exit $status ) &
    pids=($!)
    logs=("$work/rest.log")
    for i in "${!live[@]}"; do
        [ -n "${live[$i]}" ] || continue
        : > "$work/live$i.log"
        ( watched "$work/live$i.log" "${live[$i]}" "${wrapper[@]}"; status=$?
          echo "make test: live shard $((i + 1)) took $(( $(date +%s) - started )) s" >> "$work/live$i.log"; exit $status ) &
        pids+=($!)
        logs+=("$work/live$i.log")
    done
    if [ "${TEST_WITH_PIPEWIRE:-0}" = 1 ]; then
        . scripts/pipewire-subset.sh
        : > "$work/pipewire.log"
        # After every other shard: beside the live ones, PipeWire's client missed cycles that the
        # recorder cannot see (a clock short in a quarter heard whole, a tone 0.2 Hz off).
        others=("${pids[@]}")
        ( for pid in "${others[@]}"; do while kill -0 "$pid" 2>/dev/null; do sleep 1; done; done
          echo "make test: PipeWire's JACK: $(pipewire --version | grep -o 'libpipewire [0-9.]*'), ${#pipewire_subset[@]} groups of live tests" > "$work/pipewire.log"
          watched "$work/pipewire.log.run" "$pipewire_filter" "${pipewire_wrapper[@]}"
          status=$?; cat "$work/pipewire.log.run" >> "$work/pipewire.log"; rm -f "$work/pipewire.log.run"
          echo "make test: PipeWire's subset ended at $(( $(date +%s) - started )) s" >> "$work/pipewire.log"; exit $status ) &
        pids+=($!)
        logs+=("$work/pipewire.log")
    fi
    tail -n +1 -f --pid="${pids[1]:-${pids[0]}}" "${logs[1]:-${logs[0]}}" 2>/dev/null
    status=0
    for i in "${!pids[@]}"; do
        wait "${pids[$i]}" || status=$?
        [ "$i" = 1 ] || cat "${logs[$i]}"
    done
fi
cat "$work"/*.log > "$work/suite"
elapsed=$(( $(date +%s) - started ))

# Each class's time, slowest first (XCTest prints "Test Suite 'Class' passed at …" and on the next
# line "Executed N tests, with … in SECONDS (…) seconds"); the run's total from the top suite's.
tab=$'\t'
times=$(awk -v q="'" '/^Test Suite .* (passed|failed) at/ { split($0, part, q); name = part[2]; next }
                      name != "" && /Executed [0-9]+ tests?, with/ {
                          for (i = 1; i <= NF; i++) if ($i == "in") seconds = $(i + 1)
                          count = $2; printf "%s\t%s\t%s\n", name, seconds, count; name = "" }' "$work/suite")
echo
echo "make test: the slowest test classes (seconds):"
grep -vE "^(All tests|Selected tests|[^$tab]*\.xctest)$tab" <<<"$times" | sort -t$'\t' -k2 -rn | head -"${TEST_SLOWEST:-20}" |
    awk -F'\t' '{ printf "%9.1f  %s\n", $2, $1 }'
total=$(grep -E "^(All tests|Selected tests)$tab" <<<"$times" | awk -F'\t' '{ n += $3 } END { print n }')
echo "make test: ${total:-?} tests in ${elapsed} s"
grep -E '^make test: .* (took|ended at) [0-9]+ s$' "$work/suite" | sed 's/^make test: /make test:   /'

# XCTest prints "FILE:LINE: Suite.test : Test skipped - REASON" for each skip.
skipped=$(grep -E ' : Test skipped - ' "$work/suite" | sed -E 's/^.*: ([A-Za-z0-9_]+\.[A-Za-z0-9_]+) : Test skipped - (.*)$/\1\t\2/' | sort -u)
if [ -z "$skipped" ]; then
    echo "make test: none skipped"
else
    echo "make test: $(printf '%s\n' "$skipped" | wc -l) of ${total:-?} tests skipped:"
    # One block per reason, then the tests that gave it.
    printf '%s\n' "$skipped" | awk -F'\t' '
        { tests[$2] = tests[$2] "    " $1 "\n"; count[$2]++ }
        END { for (reason in tests) { printf "  %d skipped: %s\n%s", count[reason], reason, tests[reason] } }'
fi
# Skips that say nothing about our code: the peers' files are absent, or the machine has no
# network address besides loopback, or cannot loop multicast back to itself, or no SBaGenX binary
# was given (SBAGENX_BIN: built from its source, which cannot ship here), or a test for PipeWire's
# JACK in the jackd run (scripts/test-pipewire.sh runs those).
unexpected=$(printf '%s\n' "$skipped" | grep -v -e 'is not beside this checkout' -e 'no non-loopback IPv4 address' -e 'cannot carry multicast to itself' \
    -e 'SBaGenX not found' -e "PipeWire's JACK only" | grep . || true)
if [ "$status" -eq 0 ] && [ -n "$unexpected" ]; then
    echo "make test: FAILED: tests skipped for a reason the set-up should have removed:"
    printf '%s\n' "$unexpected" | sed 's/^/    /'
    exit 1
fi
[ "$status" -eq 0 ] || echo "make test: FAILED (see the failures above)"
exit $status
