#!/usr/bin/env bash
# What a binary costs to carry and to start: its size, the libraries the loader maps for it,
# `entrain --version` (the loader and the Swift runtime's start, nothing else) as a median of
# RUNS, and the memory of `entrain run` with a session on a private dummy jackd, 3 s after its
# ports appear (/proc/PID/smaps_rollup: resident, and private dirty = ours alone).
# usage: scripts/bench-footprint.sh [BINARY…]   (default: the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-21}
server="entrain-footprint-$$"
jackd -n "$server" --no-realtime -d dummy -r 48000 -p 256 >/dev/null 2>&1 &
jack=$!
stripped=$(mktemp)
trap 'kill "$jack" 2>/dev/null; wait "$jack" 2>/dev/null; rm -f "$stripped"' EXIT
export JACK_DEFAULT_SERVER=$server
for _ in $(seq 1 50); do scripts/jack-running.sh && break; sleep 0.1; done

for bin in "${@:-.build/release/entrain}"; do
  echo "== $bin"
  strip -o "$stripped" "$bin"
  echo "size: $(du -k "$bin" | cut -f1) kB; stripped: $(du -k "$stripped" | cut -f1) kB"
  echo "libraries mapped: $(ldd "$bin" | grep -c '=>') ($(ldd "$bin" | grep -ci swift) of them Swift's)"
  for _ in $(seq 1 "$runs"); do
    start=$(date +%s%N); "$bin" --version >/dev/null; echo $(( ($(date +%s%N) - start) / 100000 ))
  done | sort -n | awk '{a[NR] = $1} END {printf "--version: median %.1f ms (min %.1f, max %.1f) of %d\n", a[int((NR + 1) / 2)] / 10, a[1] / 10, a[NR] / 10, NR}'
  /usr/bin/time -f "--version: max resident %M kB" "$bin" --version 2>&1 >/dev/null
  "$bin" run --session theta-meditation --no-osc --no-restore --quiet --name footprint --log-level error &
  client=$!
  for _ in $(seq 1 100); do jack_lsp 2>/dev/null | grep -q footprint: && break; sleep 0.1; done
  sleep 3
  awk '/^(Rss|Private_Dirty|Anonymous):/ {printf "run: %s %.1f MB  ", $1, $2 / 1024} END {print ""}' /proc/$client/smaps_rollup
  kill -INT "$client"; wait "$client" 2>/dev/null || true
done
