# Sourced by the live benchmarks (bench-live.sh, bench-cpu.sh): a private dummy jackd, and the
# pinned "everything on" client — ten entrainment voices and the noise bed, the Full_Tide ambient
# preset, beat analysis fed (ambient_L into beat_in), the strobe armed, the haptic CV ports on and
# following the entrainment — with its ports connected. render-check.sh renders the same
# configuration offline (pinned_render_args) so a cheaper client cannot be one doing less.

# The pinned client's options (without --name and --osc-port).
pinned_args=(--noise pink --noise-level 0.3 --ambient-preset Full_Tide --arm-strobe --haptic-cv
             --set /haptic/source=entrainment)
for v in $(seq 2 10); do
  pinned_args+=(--set "/entrain/voice/$v/level=0.1" --set "/entrain/voice/$v/carrier=$((150 + 20 * v))")
done
# The same sound offline: no light options (render has no LED or haptic ports), a fixed seed and
# start time so the ambient engine draws the same chords in every run.
pinned_render_args=(--noise pink --noise-level 0.3 --ambient-preset Full_Tide --set /haptic/source=entrainment
                    --seed 1 --start-time 2026-02-02T14:00:00Z)
for v in $(seq 2 10); do
  pinned_render_args+=(--set "/entrain/voice/$v/level=0.1" --set "/entrain/voice/$v/carrier=$((150 + 20 * v))")
done

# The pixels issue's rig beside the pinned client: a 300-pixel strip over DDP flashing on the
# beat and a 340-pixel matrix over sACN (two universes) showing the band spectrum, each sent to a
# UDP sink on loopback. write_pixel_rig FILE DDP_PORT SACN_PORT writes the rig file.
pixel_args=(--set /pixels/strip/effect=beat --set /pixels/wall/effect=bands --set /pixels/wall/palette=rainbow)
write_pixel_rig() {
  cat > "$1" <<RIG
[{"name": "strip", "pixels": 300, "protocol": "ddp", "target": "127.0.0.1:$2", "fps": 50},
 {"name": "wall", "pixels": 340, "layout": "matrix", "width": 34, "protocol": "sacn", "target": "127.0.0.1:$3", "universe": 1, "fps": 44}]
RIG
}

# start_udp_sink PORT: a receiver that reads and drops datagrams (what a controller does with
# them, as far as the sender's cost goes). Sets $sink (its PID).
start_udp_sink() {
  python3 -c 'import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", int(sys.argv[1])))
while True: s.recv(65536)' "$1" &
  sink=$!
}

# start_server NAME PERIOD: a dummy jackd at 48 kHz, realtime when it can be had. Sets $jack
# (its PID) and $realtime (-R or --no-realtime); exports JACK_DEFAULT_SERVER.
start_server() {
  realtime=-R
  jackd -n "$1" $realtime -d dummy -r 48000 -p "$2" >/dev/null 2>&1 &
  jack=$!
  sleep 1
  if ! kill -0 "$jack" 2>/dev/null; then
    echo "realtime scheduling unavailable: the server runs without it"
    realtime=--no-realtime
    jackd -n "$1" $realtime -d dummy -r 48000 -p "$2" >/dev/null 2>&1 &
    jack=$!
  fi
  export JACK_DEFAULT_SERVER=$1
  for _ in $(seq 1 50); do scripts/jack-running.sh && break; sleep 0.1; done
}

# connect_retrying FROM TO: jack_connect sometimes fails to open its own JACK client at once
# ("already connected?"): a few tries.
connect_retrying() {
  for _ in 1 2 3 4 5; do jack_connect "$1" "$2" 2>/dev/null && return; jack_lsp -c "$1" | grep -q "^ *$2\$" && return; sleep 0.2; done
  echo "warning: $1 could not be connected to $2"
}

# connect_pinned CLIENT: ambient_L into beat_in, the audio pair, the LED and haptic ports to the
# (dummy) playback ports, once the client's ports exist.
connect_pinned() {
  local c=$1
  for _ in $(seq 1 100); do jack_lsp 2>/dev/null | grep -q "^$c:beat_in" && break; sleep 0.1; done
  connect_retrying "$c:ambient_L" "$c:beat_in"
  for p in $(jack_lsp 2>/dev/null | grep -E "^$c:(led|haptic)"); do connect_retrying "$p" system:playback_1; done
  connect_audio "$c"
}

# connect_audio CLIENT: entrainment_L/R to the first two playback ports.
connect_audio() {
  for _ in $(seq 1 100); do jack_lsp 2>/dev/null | grep -q "^$1:entrainment_R" && break; sleep 0.1; done
  connect_retrying "$1:entrainment_L" system:playback_1
  connect_retrying "$1:entrainment_R" system:playback_2
}
