import json
import sys
# Usage: kessho-gen-params-swift.py params.json (output of kessho-gen-params.py); writes Sources/Kessho/Parameters/.
p = json.load(open(sys.argv[1]))
groups = [("Mix", "A–E: master mixer, global/seed/CoF, harmony, pad envelope and timbre", "ABCDE"),
          ("Effects", "F–G: reverb and granular", "FG"),
          ("Lead", "H–K: lead synths, their morphs and Euclidean lanes", "HIJK"),
          ("Drums", "L–Q2: drum machine voices, morphs, delay and sequencer", "LMNOPQ"),
          ("Ocean", "R–S: ocean and random walk", "RS")]
def lit(v):
    s = repr(float(v))
    return s[:-2] if s.endswith(".0") else s
def q(s): return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'
for name, doc, letters in groups:
    out = [f"// Generated from the reference's §2 tables by scripts/kessho-gen-params.py; edit there, not here.",
           f"// Sections {doc}.", "", "extension KesshoParameters {",
           f"    static let {name.lower()}: [KesshoParameter] = ["]
    sec = None
    for x in p:
        if x['section'][0] not in letters: continue
        if x['section'] != sec:
            sec = x['section']; out.append(f"        // {sec}")
        if x["key"] == "synthChordSequencerEnabled":
            out.append("        // DEFAULT_STATE keeps this one after the lanes (needed for the §4.1 state-hash vector)")
        k, s, m = q(x["key"]), q(sec.split(".")[0]), q(x["meaning"])
        if x['kind'] == 'number':
            if 'range' in x:
                lo, hi, st = x['range']
                out.append(f"        .number({k}, {lit(lo)}, {lit(hi)}, step: {lit(st)}, default: {lit(x['default'])}, {s}, {m}),")
            else:
                out.append(f"        .freeNumber({k}, default: {lit(x['default'])}, {s}, {m}),")
        elif x['kind'] == 'bool':
            out.append(f"        .bool({k}, default: {'true' if x['default'] else 'false'}, {s}, {m}),")
        elif x['kind'] == 'choice':
            opts = ", ".join(q(o) for o in x['options'])
            out.append(f"        .choice({k}, [{opts}], default: {q(x['default'])}, {s}, {m}),")
        else:
            out.append(f"        .text({k}, default: {q(x['default'])}, {s}, {m}),")
    out += ["    ]", "}", ""]
    open(f"Sources/Kessho/Parameters/KesshoParameters+{name}.swift", "w").write("\n".join(out))
