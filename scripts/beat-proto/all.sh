#!/bin/bash
# One variant on the three corpora: the real recordings, the songs and the synthesized items.
#   entrain beat-eval --keep $SYNTH; entrain beat-eval --songs --keep $SONGS   (once)
#   scripts/beat-proto/all.sh TAG '{"every":1}'     -> $RESULTS/TAG-{real,songs,synth}.{txt,json}
# The synthesized no-beat items (empty beat files) are left out here; count their beats apart.
set -e
cd "$(dirname "$0")/../.."
tag=$1; cfg=${2:-'{}'}
REAL=${REAL:-.corpus/real} SONGS=${SONGS:-.corpus/songs} SYNTH=${SYNTH:-.corpus/synth} RESULTS=${RESULTS:-.corpus/beatproto-results}
mkdir -p "$RESULTS/synth-beats"
for f in "$SYNTH"/*.wav; do b=${f%.wav}; [ -s "$b.beats.txt" ] && ln -sf "$(realpath "$f")" "$(realpath "$b.beats.txt")" "$RESULTS/synth-beats/"; done
for c in "real:$REAL" "songs:$SONGS" "synth:$RESULTS/synth-beats"; do n=${c%%:*}; d=${c#*:}
    OUT=$RESULTS/$tag-$n.json python3 scripts/beat-proto/beatproto.py "$d" "$cfg" > "$RESULTS/$tag-$n.txt"
    echo "$tag $n: $(tail -1 "$RESULTS/$tag-$n.txt")"
done
# songs and synthesized items are judged at the annotated level
python3 - "$RESULTS" "$tag" <<'PY'
import json, sys
res, tag = sys.argv[1:]
for n in ["songs", "synth"]:
    r = json.load(open(f"{res}/{tag}-{n}.json"))
    print(tag, n, "annotated F mean %.3f" % (sum(x["f"] for x in r) / len(r)), "below 0.95:", [(x["name"], round(x["f"], 3)) for x in r if x["f"] < 0.95])
PY
