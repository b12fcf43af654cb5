#!/usr/bin/env bash
# No change to what comes out: 60 s of the pinned live-benchmark configuration (ten voices, pink
# noise, Full_Tide; scripts/live-bench-common.sh) rendered offline by two builds, at 64- and
# 256-frame blocks, compared sample by sample (the mix and both stems). Prints the largest
# difference of each file in dBFS and fails when one is above LIMIT_DB (-100).
#   BEFORE=/path/to/entrain-of-main scripts/render-check.sh
#   BEFORE=… AFTER=… SECONDS_TO_RENDER=60 LIMIT_DB=-100 scripts/render-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/live-bench-common.sh
before=${BEFORE:?give BEFORE=/path/to/the/entrain/binary to compare with (e.g. a build of main)}
after=${AFTER:-$PWD/.build/release/entrain}
seconds=${SECONDS_TO_RENDER:-60}
limit=${LIMIT_DB:--100}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for block in 64 256; do
  for side in before after; do
    bin=$before
    [ "$side" = after ] && bin=$after
    mkdir -p "$work/$side-$block"
    "$bin" render --quiet --duration "$seconds" --block-size "$block" --format float "${pinned_render_args[@]}" \
      --stems "$work/$side-$block" --out "$work/$side-$block/mix.wav" >/dev/null
  done
done

python3 - "$work" "$limit" <<'EOF'
import math, struct, sys
import numpy as np

def samples(path):
    """The float samples of a WAV file (format 3, or WAVE_FORMAT_EXTENSIBLE holding floats)."""
    data = open(path, "rb").read()
    assert data[:4] == b"RIFF" and data[8:12] == b"WAVE", path
    at, bits = 12, None
    while at + 8 <= len(data):
        tag, size = data[at:at + 4], struct.unpack("<I", data[at + 4:at + 8])[0]
        body = data[at + 8:at + 8 + size]
        if tag == b"fmt ":
            bits = struct.unpack("<H", body[14:16])[0]
        elif tag == b"data":
            assert bits == 32, f"{path}: {bits}-bit samples, expected 32-bit float"
            return np.frombuffer(body, dtype="<f4")
        at += 8 + size + (size & 1)
    raise SystemExit(f"{path}: no data chunk")

work, limit = sys.argv[1], float(sys.argv[2])
worst = -math.inf
for block in (64, 256):
    for name in ("mix.wav", "entrainment.wav", "ambient.wav"):
        a, b = samples(f"{work}/before-{block}/{name}"), samples(f"{work}/after-{block}/{name}")
        if a.shape != b.shape:
            raise SystemExit(f"{name} at {block}-frame blocks: {a.size} samples before, {b.size} after")
        peak = float(np.max(np.abs(a.astype(np.float64) - b.astype(np.float64)))) if a.size else 0.0
        db = 20 * math.log10(peak) if peak > 0 else -math.inf
        level = float(np.max(np.abs(a))) if a.size else 0.0
        print(f"{name:16} {block:3}-frame blocks: largest difference {db:8.1f} dBFS"
              f" (peak level {20 * math.log10(level) if level > 0 else -math.inf:.1f} dBFS, {a.size} samples)")
        worst = max(worst, db)
if worst > limit:
    raise SystemExit(f"render-check: FAILED: a difference of {worst:.1f} dBFS is above {limit} dBFS")
print(f"render-check: the same within {limit} dBFS (largest difference {worst:.1f} dBFS)")
EOF
