#!/usr/bin/env bash
# Build the real-recordings beat corpus (see docs/beat-analysis.md, "Real recordings"):
# LMMS demo projects, Hydrogen demo songs with recorded drum kits and MIDI files through a
# sampled GM soundfont, each with its beat truth from the music's own tempo data. The audio
# is never committed: it goes to $ENTRAIN_REAL_CORPUS, else .corpus/real (git-ignored).
#
#   scripts/build-real-corpus.sh [DIR] [--only NAME,...]
#   entrain beat-eval --corpus .corpus/real --aubio
#
# Installs the Debian packages it renders with when they are missing (as root). Rendering
# takes a while (LMMS renders about real time on a loaded machine); pieces already built are
# kept, so an interrupted run picks up where it stopped.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${ENTRAIN_REAL_CORPUS:-.corpus/real}"
if [[ $# -gt 0 && "$1" != --* ]]; then dir="$1"; shift; fi

packages=(lmms hydrogen openttd-openmsx fluidsynth fluid-soundfont-gm python3-numpy)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if ((${#missing[@]})); then
    if [[ $(id -u) -ne 0 ]]; then
        echo "build-real-corpus: missing packages: ${missing[*]} (install them as root)" >&2
        exit 1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -o DPkg::Lock::Timeout=900 --no-install-recommends "${missing[@]}"
fi
exec python3 scripts/real-corpus.py "$dir" "$@"
