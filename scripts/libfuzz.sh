#!/usr/bin/env bash
# libFuzzer over every file reader (session, preset, playlist, Kessho preset, .sbg, .gnaural,
# AHAP): coverage-guided mutation from the shipped and test files, SECONDS per reader
# (default 10). `make test` runs it briefly; `make fuzz` for longer. A crash, a hang (over 2 s
# for one input) or a memory blow-up (over 2 GB) stops the run with the input saved and exit 1:
# add that input to Tests/Fixtures/fuzz as READER-what.EXT so every test run replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
per=${1:-10}
# Its own build folder: the whole reader stack is compiled with coverage instrumentation.
work=$(mktemp -d)
if ! swift build --package-path Fuzz --scratch-path .build-fuzz -c debug \
     -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library --product entrain-libfuzzer > "$work/build.log" 2>&1; then
  grep -E "error" "$work/build.log" | head -20
  echo "libfuzz: the fuzzer did not build" >&2; exit 1
fi
bin=.build-fuzz/debug/entrain-libfuzzer
found="${TMPDIR:-/tmp}/entrain-libfuzz-findings"
mkdir -p "$found"
trap 'rm -rf "$work"' EXIT
status=0
while read -r reader folders; do
  corpus="$work/$reader"; mkdir -p "$corpus"
  for spec in $folders; do
    folder=${spec%%:*}; ext=${spec##*:}
    for f in "$folder"/*."$ext"; do [ -f "$f" ] && cp "$f" "$corpus/"; done
  done
  for f in Tests/Fixtures/fuzz/"$reader"-* Tests/Fixtures/fuzz/"$reader".*; do [ -f "$f" ] && cp "$f" "$corpus/"; done
  if ENTRAIN_FUZZ_READER="$reader" "$bin" -max_total_time="$per" -timeout=2 -rss_limit_mb=2048 -max_len=65536 \
       -print_final_stats=1 -artifact_prefix="$found/$reader-" "$corpus" > "$work/$reader.log" 2>&1; then
    runs=$(awk '/stat::number_of_executed_units/ {print $2}' "$work/$reader.log")
    cov=$(grep -oE "cov: [0-9]+" "$work/$reader.log" | tail -1)
    echo "libfuzz $reader: ${runs:-?} inputs in ${per} s, ${cov:-cov: ?} edges, no crash or hang"
  else
    status=1
    echo "libfuzz $reader: FOUND A PROBLEM (input saved under $found)"
    grep -E "ERROR|SUMMARY|Test unit written|Fatal error|==" "$work/$reader.log" | head -12
  fi
done < <(ENTRAIN_FUZZ_READER=list "$bin")
exit $status
