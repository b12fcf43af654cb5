#!/usr/bin/env bash
# `make run`: play the default session on the running JACK server, or on a dummy-driver server
# started just for this run (and stopped afterwards). Ctrl-C fades out and exits.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=.build/release/entrain
started=""

if scripts/jack-running.sh; then
  echo "make run: using the running JACK server${JACK_DEFAULT_SERVER:+ '$JACK_DEFAULT_SERVER'}"
else
  log=".jackd-${JACK_DEFAULT_SERVER:-default}.log"
  echo "make run: no JACK server is running; starting one with the dummy driver (48 kHz, 256 frames; log in $log)"
  # Its own session, so the terminal's Ctrl-C reaches entrain (which fades out) and not jackd.
  setsid jackd ${JACK_DEFAULT_SERVER:+-n "$JACK_DEFAULT_SERVER"} --no-realtime -d dummy -r 48000 -p 256 >"$log" 2>&1 &
  started=$!
  for _ in $(seq 1 50); do scripts/jack-running.sh && break; sleep 0.1; done
  scripts/jack-running.sh || { echo "make run: jackd did not start; see $log" >&2; exit 1; }
fi

stop_server() {
  if [ -n "$started" ]; then
    kill "$started" 2>/dev/null && wait "$started" 2>/dev/null
    echo "make run: stopped the dummy JACK server"
  fi
}
trap stop_server EXIT

# The default program: the alpha relaxation session (binaural, 12 Hz settling to 10 Hz), faded in.
"$bin" run --autoconnect --session sessions/alpha-relaxation.json --fade-in 5 "$@"
