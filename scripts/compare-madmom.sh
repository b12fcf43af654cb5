#!/usr/bin/env bash
# Score madmom's online beat tracker (RNN beat activation + forward-only DBN, the causal state
# of the art) on the real-recordings corpus beside ours, with beat-eval's own metrics (see
# docs/beat-analysis.md, "Real recordings").
#
#   scripts/compare-madmom.sh [CORPUS_DIR] [beat-eval options, e.g. --aubio]
#
# madmom is a comparison only: its models are CC BY-NC-SA, so nothing it produces may be
# committed or used as truth. It is installed at run time into a virtual environment outside
# the repository ($MADMOM_VENV), its beats go to a temporary folder removed at exit, and only
# the scores are kept. Needs python3 with venv, a C compiler and PyPI; the release build of
# entrain ($ENTRAIN_BINARY, else .build/release/entrain).
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${ENTRAIN_REAL_CORPUS:-.corpus/real}"
if [[ $# -gt 0 && "$1" != --* ]]; then dir="$1"; shift; fi
venv="${MADMOM_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/entrain/madmom-venv}"
bin="${ENTRAIN_BINARY:-.build/release/entrain}"
[[ -x "$bin" ]] || { echo "compare-madmom: no entrain at $bin (swift build -c release)" >&2; exit 1; }

if ! "$venv/bin/python" -c 'import madmom' 2>/dev/null; then
    python3 -m venv "$venv"
    # madmom 0.16.1 (the last release) needs Cython < 3 and a numpy that still has np.float
    # and np.int; these are the versions it was measured with.
    "$venv/bin/pip" install --quiet --disable-pip-version-check 'numpy==1.23.5' 'cython==0.29.37' \
        'scipy==1.15.3' 'mido==1.3.3' 'setuptools<70' wheel
    src=$(mktemp -d)
    "$venv/bin/pip" download --quiet --disable-pip-version-check --no-deps --no-binary :all: 'madmom==0.16.1' -d "$src"
    tar -xzf "$src"/madmom-0.16.1.tar.gz -C "$src"
    # Its sdist ships C files from an old Cython that do not compile on Python 3.11
    # (longintrepr.h): delete them so they are generated again. Python 3.10 moved
    # MutableSequence to collections.abc (madmom's later sources import it from there).
    find "$src/madmom-0.16.1/madmom" -name '*.c' -delete
    sed -i 's/^from collections import MutableSequence$/from collections.abc import MutableSequence/' \
        "$src/madmom-0.16.1/madmom/processors.py"
    "$venv/bin/pip" install --quiet --disable-pip-version-check --no-build-isolation "$src/madmom-0.16.1"
    rm -rf "$src"
fi

beats=$(mktemp -d)
trap 'rm -rf "$beats"' EXIT
for wav in "$dir"/*.wav; do
    name=$(basename "$wav" .wav)
    [[ -f "$dir/$name.beats.txt" ]] || continue
    # `single --online`: the online models (unidirectional LSTMs), causal frames and the DBN's
    # forward pass: the very beats `DBNBeatTracker online FILE` gives (checked equal), without
    # its frame-by-frame Python loop.
    "$venv/bin/DBNBeatTracker" single --online -j 1 "$wav" -o "$beats/$name.beats.txt"
done
"$bin" beat-eval --corpus "$dir" --other-beats "$beats" --other-name madmom-online "$@"
