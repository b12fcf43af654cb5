#!/usr/bin/env bash
# The CPU a user sees in `top`: the whole live client's user + system time (all its threads, from
# /proc/PID/stat) over a quiet window, beside a bare C JACK client writing a sine
# (scripts/bare-jack-sine.c) on the same private dummy jackd in the same window, with the xruns
# of both in that window and the client's time per thread (by name: entrain-jack, entrain-osc, …).
# Three configurations of the client, each in its own window:
#   pinned    everything on (scripts/live-bench-common.sh: ten voices, pink noise, Full_Tide,
#             ambient_L into beat_in, strobe armed, haptic CV following the entrainment)
#   pixels    pinned, and a 300-pixel DDP strip (beat) and a two-universe sACN matrix (bands)
#             sent to UDP sinks on loopback (the sinks' time is not the client's)
#   defaults  `entrain run` with its defaults (one binaural voice), outputs connected
#   stopped   the defaults after /session/stop (faded out, silent, still running)
# Nothing polls the client during a window. Prints one line per run and the medians.
#   PERIODS="64 256" CONFIGS="pinned pixels defaults stopped" SECONDS_TO_RUN=20 RUNS=3 scripts/bench-cpu.sh
#   ENTRAIN=/path/to/another/entrain scripts/bench-cpu.sh   (an older build, side by side)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/live-bench-common.sh
bin=${ENTRAIN:-$PWD/.build/release/entrain}
periods=${PERIODS:-64 256}
configs=${CONFIGS:-pinned pixels defaults stopped}
seconds=${SECONDS_TO_RUN:-20}
runs=${RUNS:-3}
port=$((20000 + $$ % 20000))
hz=$(getconf CLK_TCK)
work=$(mktemp -d)
cc -O2 -o "$work/bare" scripts/bare-jack-sine.c -ljack -lm

jack="" bare="" client="" sink="" sink2=""
stop_client() {
  if [ -n "$client" ]; then kill -INT "$client" 2>/dev/null; wait "$client" 2>/dev/null || true; fi
  client=""
}
stop_all() {
  stop_client
  if [ -n "$bare" ]; then kill "$bare" 2>/dev/null; wait "$bare" 2>/dev/null || true; fi
  if [ -n "$jack" ]; then kill "$jack" 2>/dev/null; wait "$jack" 2>/dev/null || true; fi
  bare="" jack=""
}
trap 'stop_all; kill $sink $sink2 2>/dev/null; rm -rf "$work"' EXIT
start_udp_sink $((port + 1)); sink2=$sink
start_udp_sink $((port + 2))
write_pixel_rig "$work/rig.json" $((port + 1)) $((port + 2))

# user + system clock ticks of a process, all threads: fields 14 and 15 of /proc/PID/stat
# (counted after the name in parentheses, which may hold spaces).
ticks() { sed 's/^.*) //' "/proc/$1/stat" | awk '{print $12 + $13}'; }
# One line per thread: its name and ticks.
thread_ticks() {
  for t in /proc/"$1"/task/*; do
    printf '%s %s\n' "${t##*/}" "$(tr ' ' _ < "$t/comm")" 2>/dev/null
  done | while read -r tid name; do
    [ -r "/proc/$1/task/$tid/stat" ] && echo "$tid $name $(sed 's/^.*) //' "/proc/$1/task/$tid/stat" | awk '{print $12 + $13}')"
  done
}
client_xruns() { "$bin" ctl --port "$port" status 2>/dev/null | awk '/^xruns/ {print $NF; exit}'; }

start_client() {  # CONFIG
  local args=(run --quiet --no-restore --osc-port "$port" --log-level warning --name bench)
  case $1 in pinned | pixels) args+=("${pinned_args[@]}") ;; esac
  if [ "$1" = pixels ]; then args+=(--pixels "$work/rig.json" "${pixel_args[@]}"); fi
  "$bin" "${args[@]}" >/dev/null 2>&1 &
  client=$!
  case $1 in pinned | pixels) connect_pinned bench ;; *) connect_audio bench ;; esac
  for _ in $(seq 1 50); do "$bin" ctl --port "$port" ping >/dev/null 2>&1 && break; sleep 0.2; done
  if [ "$1" = stopped ]; then
    "$bin" ctl --port "$port" /session/stop >/dev/null
    for _ in $(seq 1 100); do "$bin" ctl --port "$port" status 2>/dev/null | grep -q '^state  *stopped' && break; sleep 0.1; done
  fi
  sleep 3  # past the start: presets loaded, first phrases queued
}

# measure CONFIG PERIOD RUN: one window; appends "config period client% bare% clientXruns bareXruns" to results.
measure() {
  local x0 b0 c0 t0 x1 b1 c1
  start_client "$1"
  x0=$(client_xruns); b0=$(cat "$work/bare-xruns")
  thread_ticks "$client" > "$work/threads0"
  c0=$(ticks "$client"); t0=$(ticks "$bare")
  sleep "$seconds"
  c1=$(ticks "$client"); t1=$(ticks "$bare")
  thread_ticks "$client" > "$work/threads1"
  x1=$(client_xruns); b1=$(cat "$work/bare-xruns")
  local cp bp
  cp=$(awk -v a="$c0" -v b="$c1" -v h="$hz" -v s="$seconds" 'BEGIN {printf "%.2f", (b - a) * 100 / h / s}')
  bp=$(awk -v a="$t0" -v b="$t1" -v h="$hz" -v s="$seconds" 'BEGIN {printf "%.2f", (b - a) * 100 / h / s}')
  echo "$1 $2 $cp $bp $((x1 - x0)) $((b1 - b0))" >> "$work/results"
  printf '%-8s %4d frames run %d: client %6.2f %%, bare %5.2f %% of a core (%s×); xruns client %d, bare %d\n' \
    "$1" "$2" "$3" "$cp" "$bp" "$(awk -v c="$cp" -v b="$bp" 'BEGIN {printf "%.1f", (b > 0 ? c / b : 0)}')" $((x1 - x0)) $((b1 - b0))
  # Per thread, by name (threads of one name summed; a thread born in the window counts from 0).
  awk -v h="$hz" -v s="$seconds" 'NR == FNR {start[$1] = $3; next}
       {t[$2] += $3 - ($1 in start ? start[$1] : 0)}
       END {for (n in t) if (t[n] > 0) printf "    %-16s %6.2f %%\n", n, t[n] * 100 / h / s}' \
    "$work/threads0" "$work/threads1" | sort -k2 -gr | tee -a "$work/threads-$1-$2"
  stop_client
}

echo "entrain: $("$bin" --version 2>/dev/null | head -1); $seconds s windows, $runs run(s); load average $(cut -d' ' -f1-3 /proc/loadavg)"
for period in $periods; do
  start_server "entrain-cpu-$$" "$period"
  "$work/bare" bare "$work/bare-xruns" &
  bare=$!
  for _ in $(seq 1 50); do [ -s "$work/bare-xruns" ] && break; sleep 0.1; done
  connect_retrying bare:out system:playback_1
  for run in $(seq 1 "$runs"); do
    for config in $configs; do measure "$config" "$period" "$run"; done
  done
  stop_all
  rm -f "$work/bare-xruns"
done

echo
echo "medians (percent of one core, user + system, all threads; server $realtime):"
printf '| %-8s | %6s | %8s | %8s | %6s | %13s | %11s |\n' configuration period entrain bare ratio "xruns entrain" "xruns bare"
for period in $periods; do
  for config in $configs; do
    awk -v c="$config" -v p="$period" '$1 == c && $2 == p' "$work/results" | awk '
      function median(v, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) {t = v[i]; v[i] = v[j]; v[j] = t}
                                         return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
      {c[NR] = $3; b[NR] = $4; x[NR] = $5; y[NR] = $6; cfg = $1; per = $2}
      END { if (NR == 0) exit; mc = median(c, NR); mb = median(b, NR)
            printf "| %-8s | %6d | %7.2f%% | %7.2f%% | %5.1f× | %13g | %11g |\n", cfg, per, mc, mb, (mb > 0 ? mc / mb : 0), median(x, NR), median(y, NR) }'
  done
done
