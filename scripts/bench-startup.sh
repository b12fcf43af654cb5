#!/usr/bin/env bash
# Start-up times: `entrain run` until its outputs are connected to the (dummy) playback ports
# (--autoconnect connects them once the client is active, so audio is flowing), as JACK
# announces the connection to a watching client (jack_evmon, each line stamped on arrival);
# and `entrain render --duration 1` until it exits. Median of RUNS (default 5) each.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${ENTRAIN_BINARY:-$PWD/.build/release/entrain}
runs=${RUNS:-5}
server="entrain-startup-$$"
work=$(mktemp -d "${TMPDIR:-/tmp}/entrain-startup-XXXXXX")
jackd -n "$server" --no-realtime -d dummy -r 48000 -p 256 >/dev/null 2>&1 &
jack=$!
trap 'kill "$jack" 2>/dev/null; wait "$jack" 2>/dev/null; rm -rf "$work"' EXIT
export JACK_DEFAULT_SERVER=$server
for _ in $(seq 1 50); do scripts/jack-running.sh && break; sleep 0.1; done
now() { date +%s%N; }
median() { sort -n | awk '{a[NR] = $1} END {printf "%.0f ms (median of %d; all: ", a[int((NR + 1) / 2)], NR; for (i = 1; i <= NR; i++) printf "%s%s", a[i], i < NR ? " " : ")\n"}'; }

# JACK tells every client when ports connect: a watcher stamps each event as it arrives.
stdbuf -oL jack_evmon 2>/dev/null | python3 -u -c '
import sys, time
for line in sys.stdin: print(time.time_ns(), line, end="", flush=True)' >> "$work/events" &
watcher=$!
trap 'kill "$watcher" "$jack" 2>/dev/null; wait "$jack" 2>/dev/null; rm -rf "$work"' EXIT
sleep 0.5
for _ in $(seq 1 "$runs"); do
  : > "$work/events"
  start=$(now)
  "$bin" run --quiet --no-osc --no-restore --autoconnect --name startup --log-level error &
  client=$!
  until grep -aq " connected" "$work/events"; do sleep 0.005; done
  connected=$(grep -a -m1 " connected" "$work/events" | cut -d' ' -f1)
  echo $(( (connected - start) / 1000000 ))
  kill -INT "$client"; wait "$client" 2>/dev/null || true
  sleep 0.3
done > "$work/run"
for _ in $(seq 1 "$runs"); do
  start=$(now)
  "$bin" render --duration 1 --out "$work/one.wav" >/dev/null 2>&1
  echo $(( ($(now) - start) / 1000000 ))
done > "$work/render"
echo "entrain run to audio on the ports: $(median < "$work/run")"
echo "entrain render --duration 1 to exit: $(median < "$work/render")"
