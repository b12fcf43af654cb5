#!/usr/bin/env python3
"""Extract the Kessho web app's state keys into JSON.

Usage: kessho-gen-params.py TABLES.md > params.json
TABLES.md describes the app's state in a chapter headed "## 2. Parameter state": one "#### X. Title"
heading per section (A–S) with a table of key | type | range /step | default | notes, ending at
"#### T.". The Swift tables in Sources/Kessho/Parameters/ were generated from this output; rerun to audit them.
"""
import json, re, sys

lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
start = next(i for i, l in enumerate(lines) if l.startswith("## 2. Parameter state"))
end = next(i for i, l in enumerate(lines) if l.startswith("#### T."))
params, section = [], None

def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]

def parse_range(text):
    if text in ("—", "-", ""):
        return None
    m = re.fullmatch(r"(-?[\d.]+)\.\.(-?[\d.]+) /([\d.]+)", text)
    assert m, text
    return [float(m.group(1)), float(m.group(2)), float(m.group(3))]

def parse_kind(text):
    if text == "num": return {"kind": "number"}
    if text == "bool": return {"kind": "bool"}
    if text.startswith("enum:"):
        opts = [o.strip() for o in text[5:].split("/")]
        if opts == ["synth1…synth6"] or "synth1…synth6" in opts:
            i = opts.index("synth1…synth6")
            opts[i:i + 1] = [f"synth{n}" for n in range(1, 7)]
        return {"kind": "choice", "options": opts}
    if text.startswith("string"): return {"kind": "text"}
    raise ValueError(text)

def parse_default(kind, text):
    if kind["kind"] == "number": return float(text)
    if kind["kind"] == "bool": return {"true": True, "false": False}[text]
    return text

def add(key, kind, rng, default, meaning):
    p = {"key": key, "section": section, "meaning": meaning, "default": parse_default(kind, default)}
    p.update(kind)
    if rng: p["range"] = rng
    params.append(p)

i = start
while i < end:
    l = lines[i]
    if l.startswith("#### "):
        section = l[5:].split("—")[0].strip()
        header = cells(lines[i + 1])
        i += 3
        rows = []
        while i < end and lines[i].startswith("|"):
            rows.append(cells(lines[i])); i += 1
        if header[0] == "Key":
            for key, typ, rng, default, notes in rows:
                add(key.strip("`"), parse_kind(typ), parse_range(rng), default, notes)
        elif header[0] == "Field":
            prefix = "leadEuclid" if section.startswith("K.") else "drumEuclid"
            for n in range(1, 5):
                for r in rows:
                    field, typ, rng = r[0], r[1], r[2]
                    add(f"{prefix}{n}{field}", parse_kind(typ), parse_range(rng), r[2 + n], r[7] if len(r) > 7 else "")
        elif header[0] == "Voice":
            fields = ["PresetA", "PresetB", "Morph", "MorphAuto", "MorphSpeed", "MorphMode"]
            for r in rows:
                v = r[0]
                add(f"drum{v}PresetA", {"kind": "text"}, None, r[1], f"{v} drum preset A name")
                add(f"drum{v}PresetB", {"kind": "text"}, None, r[2], f"{v} drum preset B name")
                add(f"drum{v}Morph", {"kind": "number"}, [0, 1, 0.01], r[3], f"{v} morph 0 = preset A … 1 = preset B")
                add(f"drum{v}MorphAuto", {"kind": "bool"}, None, r[4], f"{v} UI morph animation on")
                add(f"drum{v}MorphSpeed", {"kind": "number"}, [1, 32, 1], r[5], f"{v} morph animation cycles per minute")
                add(f"drum{v}MorphMode", {"kind": "choice", "options": ["linear", "pingpong", "random"]}, None, r[6],
                    f"{v} morph animation shape")
        continue
    i += 1

# The web's state hash (xmur3 of JSON.stringify(DEFAULT_STATE) = 2931442779) holds only if
# synthChordSequencerEnabled follows the lead Euclid lanes (the tables list it in section J, before them).
moved = next(p for p in params if p["key"] == "synthChordSequencerEnabled")
params.remove(moved)
params.insert(next(i for i, p in enumerate(params) if p["key"] == "leadEuclid4Source") + 1, moved)

# Notes that point at other chapters of the tables' document, said in their own words instead.
OWN_WORDS = {
    "seedWindow": "UTC bucket granularity for seeds (the hour or the day in the seed strings)",
    "manualScale": "one of the 11 scale names of KesshoScales (generic, no root prefix)",
    "oscBrightness": "0 sine, 1 sine+tri, 2 tri+2 saws, 3 two saws",
    "filterResonance": "adds Q (effectively overwritten within 100 ms by the filter walk)",
    "reverbType": "picks the FDN's base decay, diffusion and modulation depth; iOS-only names mapped on load",
    "reverbDiffusion": "scales the allpass diffusers' gains",
    "lead1PresetA": "Lead4opFM preset id (one of 16 FM voices, e.g. soft_rhodes)",
    "lead1Morph": "0 = A … 1 = B (per note: every numeric FM field interpolated between the two presets)",
    "drumEuclidDivision": "not read by the scheduler (per-lane clock divisions are fixed)",
    "randomWalkSpeed": "UI-side speed of all walk-mode sliders",
}
for n in range(1, 5):
    OWN_WORDS[f"leadEuclid{n}Preset"] = "named Euclidean pattern (steps/hits/rotation, e.g. lancaran 16/4/0) or `custom`"
    OWN_WORDS[f"drumEuclid{n}Preset"] = "named pattern of the drum lanes' list or custom (the lane's own sliders)"
for p in params:
    p["meaning"] = OWN_WORDS.get(p["key"], p["meaning"])

json.dump(params, sys.stdout, indent=1, ensure_ascii=False)
