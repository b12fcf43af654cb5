#!/usr/bin/env bash
# `make bench-osc`: 10,000 OSC messages per second for 60 s into a running client on a private
# dummy jackd; reports xruns, /error replies, whether the last change was applied, and memory.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/release/entrain
server="entrain-bench-$$"
port=$((20000 + $$ % 20000))
rate=${RATE:-10000}
seconds=${SECONDS_TO_RUN:-60}

jackd -n "$server" --no-realtime -d dummy -r 48000 -p 256 >/dev/null 2>&1 &
jack=$!
client=""
stop() {  # the client first (it fades out and closes), then the server
  [ -n "$client" ] && kill -INT "$client" 2>/dev/null && wait "$client" 2>/dev/null
  kill "$jack" 2>/dev/null; wait "$jack" 2>/dev/null
}
trap stop EXIT
for _ in $(seq 1 50); do JACK_DEFAULT_SERVER=$server scripts/jack-running.sh && break; sleep 0.1; done

JACK_DEFAULT_SERVER=$server "$bin" run --quiet --osc-port "$port" --log-level warning &
client=$!
sleep 1.5
rss() { awk '/VmRSS/ {print $2}' "/proc/$client/status"; }
before=$(rss)
"$bin" osc-load --port "$port" --rate "$rate" --seconds "$seconds"
after=$(rss)
private=$(awk '/^Private_Clean|^Private_Dirty/ {sum += $2} END {print sum}' "/proc/$client/smaps_rollup")
echo "client resident memory: ${before} kB before, ${after} kB after (${private} kB private; the rest is shared: JACK's shm, libraries)"
