#!/usr/bin/env bash
# The live client with everything running on a private dummy jackd (the pinned configuration of
# scripts/live-bench-common.sh: ten entrainment voices and the noise bed, Full_Tide, beat analysis
# fed from ambient_L, the LED strobe armed, the haptic CV ports on and connected). Prints JACK's
# DSP load (its share of the period, sampled once a second: median and worst), the client's
# xruns, whether the process thread runs SCHED_FIFO, the client's own slowest process callback of each second (/status:
# median and worst), and the client's private memory with JACK's shared memory apart. The
# whole process's CPU beside a bare JACK client is scripts/bench-cpu.sh's (make bench-live runs both).
#   PERIOD=32 SECONDS_TO_RUN=600 scripts/bench-live.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/live-bench-common.sh
bin=$PWD/.build/release/entrain
period=${PERIOD:-64}
seconds=${SECONDS_TO_RUN:-60}
server="entrain-live-$$"
port=$((20000 + $$ % 20000))

start_server "$server" "$period"
client=""
stop() {
  [ -n "$client" ] && kill -INT "$client" 2>/dev/null && wait "$client" 2>/dev/null
  kill "$jack" 2>/dev/null; wait "$jack" 2>/dev/null
}
trap stop EXIT
"$bin" run --quiet --no-restore --osc-port "$port" --log-level warning --name bench "${pinned_args[@]}" &
client=$!
connect_pinned bench
sleep 2

loads=$(mktemp) slowest=$(mktemp)
# Our own measure beside JACK's: the slowest process callback of each second, from /status.
( end=$((SECONDS + seconds)); while [ $SECONDS -lt $end ]; do
    "$bin" ctl --port "$port" status 2>/dev/null | awk '/^slowest period/ {print $NF}'; sleep 1
  done > "$slowest" ) &
poller=$!
timeout "$seconds" jack_cpu_load 2>/dev/null | awk '/DSP load/ {print $NF}' > "$loads" || true
wait "$poller" || true
fifo=$(for t in /proc/$client/task/*; do chrt -p "${t##*/}" 2>/dev/null; done | grep -c SCHED_FIFO || true)
status=$("$bin" ctl --port "$port" status 2>&1 || true)
xruns=$(echo "$status" | awk 'tolower($0) ~ /xrun/ {print $NF; exit}')
private=$(awk '/^Private_Dirty/ {d = $2} /^Anonymous/ {a = $2} /^Rss/ {r = $2} END {print d " kB private dirty, " a " kB anonymous, " r " kB resident"}' "/proc/$client/smaps_rollup")
shm=$(awk '/^[0-9a-f]+-[0-9a-f]+ / {inshm = ($6 ~ /^\/dev\/shm\/jack/)} inshm && /^Rss:/ {s += $2} END {print s + 0}' "/proc/$client/smaps")

sort -g "$loads" | awk -v p="$period" -v s="$seconds" -v rt="$realtime" -v f="$fifo" '
  {a[NR] = $1} END {
    printf "period %d frames at 48 kHz (%.3f ms), %d s, server %s, %d client thread(s) SCHED_FIFO\n", p, p / 48, s, rt, f
    printf "JACK DSP load: median %.2f %%, worst %.2f %% of the period (%d samples, one a second)\n", a[int((NR + 1) / 2)], a[NR], NR
  }'
sort -g "$slowest" | awk '{a[NR] = $1} END {
    printf "slowest process callback per second: median %.1f %%, worst %.1f %% of the period (%d seconds)\n", a[int((NR + 1) / 2)], a[NR], NR }'
echo "client xruns: ${xruns:-unknown (entrain ctl status said: $status)}"
echo "client memory: $private; JACK shared memory mapped: $shm kB (not ours)"
rm -f "$loads" "$slowest"
