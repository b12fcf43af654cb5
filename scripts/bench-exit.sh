#!/usr/bin/env bash
# Exit time: SIGTERM to `entrain run` (default fade-out, 2 s) until the process has exited, on a
# private dummy jackd, RUNS times (default 10). The client runs a few seconds first, so the fade
# starts from full level; each run's time and the median and slowest are printed.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${ENTRAIN_BINARY:-$PWD/.build/release/entrain}
runs=${RUNS:-10}
server="entrain-exit-$$"
jackd -n "$server" --no-realtime -d dummy -r 48000 -p 256 >/dev/null 2>&1 &
jack=$!
trap 'kill "$jack" 2>/dev/null; wait "$jack" 2>/dev/null' EXIT
export JACK_DEFAULT_SERVER=$server
for _ in $(seq 1 50); do scripts/jack-running.sh && break; sleep 0.1; done
now() { date +%s%N; }
times=()
for _ in $(seq 1 "$runs"); do
  "$bin" run --quiet --no-restore --name exitbench --log-level error ${OSC_ARGS:---osc-port 0} "$@" &
  client=$!
  until jack_lsp 2>/dev/null | grep -q '^exitbench:haptic$'; do sleep 0.05; done
  sleep 2
  start=$(now)
  kill -TERM "$client"
  wait "$client" || { echo "exit status $?" >&2; exit 1; }
  times+=($(( ($(now) - start) / 1000000 )))
done
sorted=$(printf '%s\n' "${times[@]}" | sort -n)
median=$(echo "$sorted" | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
echo "SIGTERM to exit (fade-out 2 s unless given): median ${median} ms, slowest $(echo "$sorted" | tail -1) ms; all: ${times[*]}"
