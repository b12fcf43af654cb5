#!/usr/bin/env python3
"""Make the HRV test series (Tests/Fixtures/hrv/*.txt) and neurokit2's figures on them
(Tests/Fixtures/hrv/neurokit2.json). Run once by hand (pip install neurokit2); `make test` only
reads what it wrote. Deterministic: fixed seeds."""
import json, math, os, random, sys

import neurokit2 as nk
import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "hrv")


def breathing(seconds, mean, swing, hz, noise_sd, seed):
    """RR (ms) with an RSA swing at `hz` plus Gaussian beat-to-beat noise, rounded to 1 ms."""
    rng, t, out = random.Random(seed), 0.0, []
    while t < seconds:
        rr = round(mean + swing * math.sin(2 * math.pi * hz * t) + rng.gauss(0, noise_sd))
        out.append(rr)
        t += rr / 1000
    return out


def with_artifacts(rr):
    """A missed beat (two intervals merged) and an extra one (an interval split) every 40 beats."""
    out = []
    for i, r in enumerate(rr):
        if i % 40 == 20 and i + 1 < len(rr):
            out.append(r + rr[i + 1]); continue
        if i % 40 == 21:
            continue
        if i % 40 == 35:
            out += [r // 3, r - r // 3]; continue
        out.append(r)
    return out


SERIES = {
    "resonance-6-per-min": breathing(300, 1000, 80, 0.1, 8, 1),
    "breathing-12-per-min": breathing(300, 900, 50, 0.2, 6, 2),
    "no-rhythm": breathing(300, 850, 0, 0.1, 45, 3),
}
SERIES["resonance-with-artifacts"] = with_artifacts(SERIES["resonance-6-per-min"])


def figures(rr):
    rr = np.asarray(rr, dtype=float)
    peaks = nk.intervals_to_peaks(rr, sampling_rate=1000)
    time = nk.hrv_time(peaks, sampling_rate=1000).iloc[0]
    freq = nk.hrv_frequency(peaks, sampling_rate=1000, normalize=True).iloc[0]
    return {
        "count": int(len(rr)),
        "HRV_MeanNN": float(time["HRV_MeanNN"]), "HRV_SDNN": float(time["HRV_SDNN"]),
        "HRV_RMSSD": float(time["HRV_RMSSD"]), "HRV_pNN50": float(time["HRV_pNN50"]),
        "HRV_LFn": float(freq["HRV_LFn"]), "HRV_HFn": float(freq["HRV_HFn"]), "HRV_LFHF": float(freq["HRV_LFHF"]),
    }


def main():
    os.makedirs(OUT, exist_ok=True)
    result = {"neurokit2": nk.__version__, "series": {}}
    for name, rr in SERIES.items():
        with open(os.path.join(OUT, name + ".txt"), "w") as f:
            f.write("# RR intervals in ms, one per line; made by scripts/hrv-reference-figures.py\n")
            f.write("\n".join(str(r) for r in rr) + "\n")
        if name != "resonance-with-artifacts":
            result["series"][name] = figures(rr)
    with open(os.path.join(OUT, "neurokit2.json"), "w") as f:
        json.dump(result, f, indent=2, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    sys.exit(main())
