#!/usr/bin/env bash
# The live client with everything running on a private dummy jackd: ten entrainment voices and
# the noise bed, the heaviest shipped ambient preset, beat analysis fed (ambient_L into beat_in),
# the LED strobe armed and the haptic CV ports connected. Prints JACK's DSP load (its share of
# the period, sampled once a second: median and worst), the client's xruns, whether the process
# thread runs SCHED_FIFO, and the client's private memory with JACK's shared memory apart.
#   PERIOD=32 SECONDS_TO_RUN=600 scripts/bench-live.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$PWD/.build/release/entrain
period=${PERIOD:-64}
seconds=${SECONDS_TO_RUN:-60}
server="entrain-live-$$"
port=$((20000 + $$ % 20000))

realtime=-R
jackd -n "$server" $realtime -d dummy -r 48000 -p "$period" >/dev/null 2>&1 &
jack=$!
sleep 1
if ! kill -0 "$jack" 2>/dev/null; then
  echo "realtime scheduling unavailable: the server runs without it"
  realtime=--no-realtime
  jackd -n "$server" $realtime -d dummy -r 48000 -p "$period" >/dev/null 2>&1 &
  jack=$!
fi
client=""
stop() {
  [ -n "$client" ] && kill -INT "$client" 2>/dev/null && wait "$client" 2>/dev/null
  kill "$jack" 2>/dev/null; wait "$jack" 2>/dev/null
}
trap stop EXIT
export JACK_DEFAULT_SERVER=$server
for _ in $(seq 1 50); do scripts/jack-running.sh && break; sleep 0.1; done

voices=()
for v in $(seq 2 10); do voices+=(--set "/entrain/voice/$v/level=0.1" --set "/entrain/voice/$v/carrier=$((150 + 20 * v))"); done
"$bin" run --quiet --no-restore --osc-port "$port" --log-level warning --name bench \
  --noise pink --noise-level 0.3 "${voices[@]}" --ambient-preset Tidal_Glass --arm-strobe --haptic-cv &
client=$!
for _ in $(seq 1 100); do jack_lsp 2>/dev/null | grep -q '^bench:beat_in' && break; sleep 0.1; done
# jack_connect sometimes fails to open its own JACK client at once ("already connected?"): retry.
for _ in 1 2 3 4 5; do jack_connect bench:ambient_L bench:beat_in 2>/dev/null && break; sleep 0.2; done
jack_lsp -c bench:beat_in | grep -q ambient_L || echo "warning: ambient_L could not be connected to beat_in"
for p in $(jack_lsp 2>/dev/null | grep -E '^bench:(led|haptic)'); do jack_connect "$p" system:playback_1 || true; done
for p in L R; do jack_connect "bench:entrainment_$p" "system:playback_$([ $p = L ] && echo 1 || echo 2)" || true; done
sleep 2

loads=$(mktemp)
timeout "$seconds" jack_cpu_load 2>/dev/null | awk '/DSP load/ {print $NF}' > "$loads" || true
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
echo "client xruns: ${xruns:-unknown (entrain ctl status said: $status)}"
echo "client memory: $private; JACK shared memory mapped: $shm kB (not ours)"
rm -f "$loads"
