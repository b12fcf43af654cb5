#!/usr/bin/env bash
# `make bench` (second half): `entrain render` against SBaGenX on the same work and format,
# 10 min of binaural 200/10 Hz + pink noise at 48 kHz into a 16-bit WAV, and the ratio of the
# median wall times. SBaGenX is built from a local checkout of its public source, given by
# SBAGENX_SRC, in a temporary folder outside the repository (nothing of it is kept); or
# SBAGENX_BIN names a ready binary. Without either it skips and says so.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$PWD/.build/release/entrain
runs=${RUNS:-5}
minutes=${MINUTES:-10}

work=$(mktemp -d "${TMPDIR:-/tmp}/entrain-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT

sbagenx=${SBAGENX_BIN:-}
if [ -z "$sbagenx" ]; then
  src=${SBAGENX_SRC:-}
  if [ -z "$src" ] || [ ! -f "$src/sbagenx.c" ] || [ ! -f "$src/sbagenxlib.c" ]; then
    echo "bench: SBaGenX comparison skipped: set SBAGENX_SRC to a checkout of SBaGenX's source" \
         "(the folder with sbagenx.c and sbagenxlib.c), or SBAGENX_BIN to its binary"
    exit 0
  fi
  if ! echo '#include <alsa/asoundlib.h>' | gcc -E - >/dev/null 2>&1; then
    echo "bench: SBaGenX comparison skipped: building SBaGenX needs the ALSA headers (apt install libasound2-dev)"
    exit 0
  fi
  # Its Linux build script's flags, without the optional decoders.
  version=$(cat "$src/VERSION" 2>/dev/null || echo unknown)
  flags=(-DT_LINUX -O3 -I"$src" "-DSBAGENXLIB_VERSION=\"$version\"")
  sed "s/__VERSION__/\"$version\"/" "$src/sbagenx.c" > "$work/sbagenx.c"
  if ! { gcc "${flags[@]}" -c "$src/sbagenxlib.c" -o "$work/sbagenxlib.o" &&
         gcc "${flags[@]}" "$work/sbagenx.c" "$work/sbagenxlib.o" -o "$work/sbagenx" -lm -lpthread -lasound; } \
       >"$work/build.log" 2>&1; then
    echo "bench: SBaGenX comparison skipped: SBaGenX $version did not build (log below)"
    tail -20 "$work/build.log"
    exit 0
  fi
  sbagenx=$work/sbagenx
  echo "SBaGenX $version built from $src"
fi

length=$(printf '0:%02d:00' "$minutes")
seconds=$((minutes * 60))
sbagenx_cmd="$sbagenx -Q -r 48000 -b 16 -W -L $length -o $work/sbagenx.wav -i pink/40 200+10/20"
entrain_cmd="$bin render --duration $seconds --carrier 200 --beat 10 --noise pink --noise-level 0.4 --format 16 --out $work/entrain.wav"

# Median wall time and median CPU time (user + system) of $runs runs, in seconds: "wall cpu".
# CPU time says more on a busy machine, where the wall time depends on what else runs.
median() {
  local log
  log=$(mktemp "$work/times-XXXXXX")
  for _ in $(seq 1 "$runs"); do
    { TIMEFORMAT='%R %U %S'; time $1 >/dev/null 2>&1; } 2>> "$log"
  done
  local wall cpu
  wall=$(awk '{print $1}' "$log" | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
  cpu=$(awk '{print $2 + $3}' "$log" | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
  echo "$wall $cpu"
}

echo "rendering $minutes min of binaural 200/10 Hz + pink noise, 48 kHz, 16-bit WAV; median of $runs runs each"
read -r theirs theirs_cpu <<< "$(median "$sbagenx_cmd")"
read -r ours ours_cpu <<< "$(median "$entrain_cmd")"
printf 'SBaGenX:        %.3f s wall, %.3f s CPU   (%s)\n' "$theirs" "$theirs_cpu" "$sbagenx_cmd"
printf 'entrain render: %.3f s wall, %.3f s CPU   (%s)\n' "$ours" "$ours_cpu" "$entrain_cmd"
awk -v t="$theirs" -v o="$ours" -v tc="$theirs_cpu" -v oc="$ours_cpu" \
  'BEGIN {printf "entrain is %.2fx as fast as SBaGenX in wall time, %.2fx in CPU time (bar: 2x)\n", t / o, tc / oc}'
