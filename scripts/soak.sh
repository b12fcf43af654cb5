#!/usr/bin/env bash
# `make soak [SOAK_MINUTES=30]`: a live client with every family active (a session playing, the
# ambient engine, strobe and haptics connected) on a private dummy jackd, under 1,000 random
# valid OSC changes per second, re-patched every 20 s, its period changed every 45 s, and the
# server killed and started again at one third and two thirds of the run. Then: did it crash,
# is the recorded output continuous between the restarts, how did anonymous memory move,
# how many xruns were reported, how long did each return take.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-30}
seconds=$((minutes * 60))
bin=${ENTRAIN_BINARY:-.build/release/entrain}
server="entrain-soak-$$"
port=$((20000 + $$ % 20000))
work=$(mktemp -d)
export JACK_DEFAULT_SERVER=$server JACK_NO_START_SERVER=1 JACK_NO_AUDIO_RESERVATION=1

jack=""; client=""; recorder=""
start_server() {
  jackd -n "$server" --no-realtime -d dummy -r 48000 -p 256 >/dev/null 2>&1 &
  jack=$!
  for _ in $(seq 1 100); do scripts/jack-running.sh && return; sleep 0.05; done
  echo "jackd did not start" >&2; exit 1
}
record() {  # a new recording of entrainment_L for each server life
  [ -n "$recorder" ] && kill "$recorder" 2>/dev/null && wait "$recorder" 2>/dev/null || true
  for _ in $(seq 1 100); do jack_lsp 2>/dev/null | grep -q "^soak:entrainment_L$" && break; sleep 0.05; done
  jack_rec -f "$work/take-$1.wav" -b 16 -d "$seconds" soak:entrainment_L >/dev/null 2>&1 &
  recorder=$!
}
stop() {
  [ -n "$recorder" ] && kill "$recorder" 2>/dev/null || true
  [ -n "$client" ] && kill -INT "$client" 2>/dev/null && wait "$client" 2>/dev/null || true
  [ -n "$jack" ] && kill "$jack" 2>/dev/null && wait "$jack" 2>/dev/null || true
}
trap stop EXIT
anonymous() { awk '/^Anonymous:/ {print $2}' "/proc/$client/smaps_rollup"; }

start_server
"$bin" run --name soak --osc-port "$port" --no-restore --log-level notice \
  --ambient-preset Bell_Garden --arm-strobe --haptic-cv 2>"$work/client.log" &
client=$!
for _ in $(seq 1 100); do jack_lsp 2>/dev/null | grep -q "^soak:haptic_sharpness$" && break; sleep 0.05; done
jack_connect soak:led system:playback_1 2>/dev/null || true  # run may have auto-connected them
jack_connect soak:haptic system:playback_2 2>/dev/null || true
sleep 1
# Started over OSC, so the session ending does not end the run.
"$bin" ctl --port "$port" /session/load theta-meditation >/dev/null 2>&1 || true
"$bin" ctl --port "$port" /session/play >/dev/null 2>&1 || true
sleep 1
memory_start=$(anonymous)
record 1
python3 scripts/soak-load.py "$port" 1000 "$seconds" "$work/status.txt" > "$work/load.txt" &
load=$!

life=1; begin=$(date +%s)
restarts=("$((seconds / 3))" "$((2 * seconds / 3))")
periods=(512 128 1024 256)
tick=0
while kill -0 "$load" 2>/dev/null; do
  sleep 1; tick=$((tick + 1))
  now=$(( $(date +%s) - begin ))
  if [ "${#restarts[@]}" -gt 0 ] && [ "$now" -ge "${restarts[0]}" ]; then
    restarts=("${restarts[@]:1}")
    kill -9 "$jack"; wait "$jack" 2>/dev/null || true
    sleep 3
    up=$(date +%s.%N); start_server
    for _ in $(seq 1 200); do jack_lsp 2>/dev/null | grep -q "^soak:haptic$" && break; sleep 0.05; done
    echo "return $(echo "$(date +%s.%N) - $up" | bc) s after the server was ready" >> "$work/returns.txt"
    life=$((life + 1)); record "$life"
    continue
  fi
  if [ $((tick % 20)) -eq 0 ]; then jack_disconnect soak:led system:playback_1 2>/dev/null || true; sleep 0.2; jack_connect soak:led system:playback_1 2>/dev/null || true; fi
  if [ $((tick % 45)) -eq 0 ]; then jack_bufsize "${periods[$(( tick / 45 % 4 ))]}" >/dev/null 2>&1 || true; fi
done
memory_end=$(anonymous)
alive=yes; kill -0 "$client" 2>/dev/null || alive=NO
kill "$recorder" 2>/dev/null; wait "$recorder" 2>/dev/null || true; recorder=""

echo "soak: ${minutes} min, 1,000 OSC changes/s, 2 server restarts, re-patching every 20 s, period changes every 45 s"
cat "$work/load.txt"
echo "client alive at the end: $alive"
cat "$work/returns.txt"
echo "anonymous memory: ${memory_start} kB at the start, ${memory_end} kB at the end"
echo "xruns reported (/status, last): $(tail -1 "$work/status.txt" | awk '{print $3}'); /status polls with the server gone: $(grep -c ' gone ' "$work/status.txt" || true)"
python3 - "$work" <<'PY'
import sys, struct, glob
for path in sorted(glob.glob(sys.argv[1] + "/take-*.wav")):
    raw = open(path, "rb").read()
    # jack_rec ends when its server dies, before it can finish the header: read past "data".
    at = raw.find(b"data")
    body = raw[at + 8:] if at >= 0 else b""
    n = len(body) // 2
    samples = struct.unpack("<%dh" % n, body[:2 * n])
    # the longest run of exact zeros after the first sound: a dropout
    started = next((i for i, s in enumerate(samples) if s != 0), n)
    longest = run = 0
    for s in samples[started:]:
        run = run + 1 if s == 0 else 0
        if run > longest: longest = run
    print(f"{path.rsplit('/', 1)[1]}: {n / 48000:.0f} s recorded, longest silence after the start {longest / 48:.1f} ms")
PY
grep -iE "error|warning" "$work/client.log" | sort | uniq -c | sort -rn | head -5 || true
rm -rf "$work"
[ "$alive" = yes ]
