#!/usr/bin/env python3
"""Numpy prototype of BandFlux + BeatStateSpace + a simplified BeatFilterTracker, to try
variants on the real corpus quickly (not shipped; scores are approximate, beat-eval is the judge).

  python3 scripts/beat-proto/beatproto.py CORPUS_DIR [VARIANT_JSON [ONLY,...]]  (README.md beside it)
"""
import json, os, sys, tempfile, wave
import numpy as np

# ---------------------------------------------------------------- activation (BandFlux)
def read_wav(path):
    b = open(path, "rb").read()
    i, fmt, data = 12, None, None
    while i + 8 <= len(b):
        cid, n = b[i:i + 4], int.from_bytes(b[i + 4:i + 8], "little")
        if cid == b"fmt ":
            fmt = b[i + 8:i + 8 + n]
        elif cid == b"data":
            data = b[i + 8:i + 8 + n]
        i += 8 + n + (n & 1)
    tag, ch, sr = int.from_bytes(fmt[0:2], "little"), int.from_bytes(fmt[2:4], "little"), int.from_bytes(fmt[4:8], "little")
    bits = int.from_bytes(fmt[14:16], "little")
    if tag == 0xFFFE:
        tag = int.from_bytes(fmt[24:26], "little")
    if tag == 3:
        x = np.frombuffer(data, dtype=np.float32 if bits == 32 else np.float64).astype(np.float64)
    else:
        x = np.frombuffer(data[:len(data) // (bits // 8) * (bits // 8)], dtype={16: np.int16, 32: np.int32}[bits]).astype(np.float64) / 2 ** (bits - 1)
    return x.reshape(-1, ch).mean(axis=1), sr

def activation(x, sr, cache=None, octw=0.0):
    if cache and os.path.exists(cache):
        d = np.load(cache)
        return d["v"], float(d["fps"]), int(d["hop"]), d["snd"]
    size = 256
    while size * 1.5 < sr * 0.0107:
        size *= 2
    hop = size // 4
    win = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(size) / size)
    nh = len(x) // hop
    xp = np.concatenate([np.zeros(size), x])
    # hop h ends at sample (h+1)*hop: window = the last `size` samples
    idx = (np.arange(nh)[:, None] + 1) * hop + np.arange(size)[None, :]  # in xp coordinates
    mags = np.empty((nh, size // 2 + 1), dtype=np.float32)
    for s in range(0, nh, 4096):
        fr = xp[idx[s:s + 4096]] * win
        mags[s:s + 4096] = np.log1p(1000 / (size / 4) * np.abs(np.fft.rfft(fr, axis=1)))
    f = np.arange(size // 2 + 1) * sr / size
    raw = np.full(len(f), -1)
    ok = (f >= 30) & (f < 16000)
    raw[ok] = np.floor(np.log2(f[ok] / 30) * 12).astype(int)
    used = sorted(set(raw[raw >= 0]))
    B = np.zeros((len(f), len(used)))
    for j, b in enumerate(used):
        m = raw == b
        B[m, j] = 1 / m.sum()
    bands = mags @ B
    ref = np.zeros_like(bands)
    ref[2:] = bands[:-2]
    mx = ref.copy()
    mx[:, 1:] = np.maximum(mx[:, 1:], ref[:, :-1])
    mx[:, :-1] = np.maximum(mx[:, :-1], ref[:, 1:])
    if octw:
        # each band weighed by (bands in its octave)^-octw: 1 weighs every octave alike
        octave = np.array([b // 12 for b in used])
        count = np.array([np.sum(octave == o) for o in octave])
        wts = count.astype(float) ** -octw
        wts *= len(used) / wts.sum()
        flux = (np.maximum(0, bands - mx) * wts).sum(axis=1)
    else:
        flux = np.maximum(0, bands - mx).sum(axis=1)
    n2 = len(flux) // 2
    v = flux[:2 * n2].reshape(n2, 2).sum(axis=1)
    fps = sr / (2 * hop)
    e = (x[:nh * hop].reshape(nh, hop) ** 2).mean(axis=1)
    # sounding per frame: above the -60 dBFS gate and within 25 dB of the ~8 s usual level
    usual, snd = 0.0, np.zeros(nh, bool)
    w = hop / sr / 8
    for h in range(nh):
        usual += (e[h] - usual) * w
        snd[h] = e[h] > 1e-6 and e[h] > 0.003 * usual
    snd = snd[:2 * n2].reshape(n2, 2).any(axis=1)
    if cache:
        np.savez(cache, v=v, fps=fps, hop=hop, snd=snd)
    return v, fps, hop, snd

# ---------------------------------------------------------------- state space
class Space:
    def __init__(self, fps, cfg):
        self.cfg = cfg
        lo, hi = 60.0, 200.0
        slowest, fastest = 40.0, 300.0
        shortest, longest = fps * 60 / fastest, fps * 60 / slowest
        if cfg.get("every"):
            a, b = cfg.get("every_range", (lo, hi))
            lengths = list(range(int(np.floor(fps * 60 / b)), int(np.ceil(fps * 60 / a)) + 1))
        else:
            nt = cfg.get("tempi", 96)
            lengths = []
            for i in range(nt):
                L = int(round(shortest * (longest / shortest) ** (i / (nt - 1))))
                if not lengths or L != lengths[-1]:
                    lengths.append(L)
        L = np.array(lengths)
        self.L = L
        self.T = len(L)
        self.firsts = np.concatenate([[0], np.cumsum(L)[:-1]])
        self.lasts = self.firsts + L - 1
        self.S = int(L.sum())
        lam = cfg.get("lam", 100.0)
        r = L[None, :] / L[:, None]
        if cfg.get("pertime"):
            # a tempo change penalised by the beat shift it makes, in seconds... (|Δinterval| frames)
            W = np.exp(-cfg["pertime"] * np.abs(L[None, :] - L[:, None]) / fps)
        else:
            W = np.exp(-lam * np.abs(r - 1))
        W /= W.sum(axis=1, keepdims=True)
        if cfg.get("wide"):
            # a small share of every beat's transition spread in log-tempo (width w): a tempo
            # jump is followed without the whole mass having to find the new tempo afresh
            eps, w = cfg["wide"]
            Wb = np.exp(-np.abs(np.log(r)) / w)
            Wb /= Wb.sum(axis=1, keepdims=True)
            W = (1 - eps) * W + eps * Wb
        if cfg.get("jump"):
            W = (1 - cfg["jump"]) * W + cfg["jump"] / len(L)
        self.W = W
        fast = fps * 60 / (L - 0.5)
        slow = fps * 60 / (L + 0.5)
        bpm = fps * 60 / L
        self.bpm = bpm
        prefer = cfg.get("prefer", 100.0)
        octv = np.log2(bpm / prefer)
        inr = ~((fast < lo) | (slow > hi))
        self.entry = np.where(inr, np.exp(-cfg.get("hint", 1.0) * octv ** 2), 0.0)
        tot = (W * (self.entry > 0)[None, :]).sum(axis=1)
        self.stay = np.where(tot > 0, 1 / np.maximum(tot, 1e-300), 0)
        self.WE = W * self.entry[None, :]
        head = np.minimum(L, max(1, int(round(0.027 * fps))))
        pre = int(round(0.011 * fps))
        pos = np.concatenate([np.arange(n) for n in L])
        tempo_of = np.repeat(np.arange(self.T), L)
        self.pos = pos
        self.tempo_of = tempo_of
        self.late_mask = (pos < head[tempo_of]) | (pos >= L[tempo_of] - pre)
        self.lam_obs = cfg.get("lamobs", 16.0)
        self.reset()

    def reset(self):
        share = np.where(self.entry > 0, 1 / self.L, 0.0)
        p = share[self.tempo_of]
        self.p = p / p.sum()

    def step(self, a):
        p = self.p
        out = p[self.lasts] * self.stay
        ent = out @ self.WE
        other = (1 - a) / (self.lam_obs - 1)
        late = max(a, other)
        q = np.roll(p, 1)
        q *= np.where(self.late_mask, late, other)
        q[self.firsts] = ent * a
        s = q.sum()
        if not (s > 0 and np.isfinite(s)):
            self.reset()
            return
        q /= s
        self.p = q

    def best(self):
        mass = np.add.reduceat(self.p, self.firsts)
        if self.cfg.get("pool"):
            # a level's mass pooled over the tempi within `pool` of its interval: with every
            # interval a slow level's mass spreads over more neighbours than a fast one's
            if not hasattr(self, "M"):
                self.M = (np.abs(self.L[None, :] / self.L[:, None] - 1) <= self.cfg["pool"]).astype(float)
            mass = self.M @ mass
        k = int(np.argmax(mass))
        if self.cfg.get("hyst") and getattr(self, "cur", None) is not None:
            # the tempo read out keeps its level: another level (more than `near` away in
            # ratio) is taken only when its mass is `hyst` times the current level's
            K, near = self.cfg["hyst"], self.cfg.get("near", 0.1)
            here = np.abs(self.L / self.L[self.cur] - 1) <= near
            kh = int(np.argmax(np.where(here, mass, -1)))
            if not here[k] and mass[k] < K * mass[kh]:
                k = kh
        self.cur = k
        blk = self.p[self.firsts[k]:self.firsts[k] + self.L[k]]
        return k, int(np.argmax(blk))

# ---------------------------------------------------------------- tracker (simplified)
def track(v, fps, hop, sr, cfg, snd, trace=None):
    sp = Space(fps, cfg)
    peak = 0.0
    decay = 0.5 ** (1 / (4 * fps))
    floor = 0.02
    beats = []  # (time, published?)
    last_phase = 0.0
    last_grid = -1e9
    recent = []
    to_judge = -1
    conf_ok = False
    publishing = False
    frame_samples = 2 * hop
    stamp_off = hop + 0.0015 * sr
    halving = False
    skip_next = False
    last_sound = -10**9
    prev_a = floor
    for i, val in enumerate(v):
        if snd[i]:
            last_sound = i
        peak = max(val, peak * decay)
        share = min(1, val / peak) if peak > 0 else 0
        a = floor + (1 - 2 * floor) * share ** cfg.get("power", 2)
        if cfg.get("amax"):
            # the filter sees the largest activation of this frame and the one before: an
            # attack split over two frames counts on either (a causal maximum filter in time)
            prev_a, a = a, max(a, prev_a)
        sp.step(a)
        k, position = sp.best()
        n = sp.L[k]
        end = (2 * i + 2) * hop
        phase = position / n
        wrapped = phase < last_phase - 0.5
        if wrapped and to_judge < 0:
            to_judge = i - position
        if to_judge >= 0 and i >= to_judge + 2:
            bf = to_judge
            to_judge = -1
            pw = cfg.get("pw", 2)
            g = cfg.get("pwgrow", 0.0)
            pk = [max(v[max(0, bf - j * n - pw - int(round(g * j * n))):bf - j * n + pw + int(round(g * j * n)) + 1], default=0) if bf - j * n + pw + 1 > 0 else 0 for j in range(4)]
            lo = max(0, bf + 2 - 4 * n)
            mean = float(np.mean(v[lo:i + 1])) if i + 1 > lo else 0
            # at least k of the last m beats peaked above the mean (as Swift: 2 of the 4; before
            # 2026-11-27 each of the last three, [3, 3])
            k_, m_ = cfg.get("heard", (2, 4))
            heard = sum(pk[j] > mean for j in range(m_)) >= k_
            contrast = np.mean(pk) / mean if mean > 0 else 0
            conf = 1 - 1.5 / contrast if contrast > 1.5 else 0
            conf_ok = heard and mean > 0 and conf >= cfg.get("cmin", 0.6)
            if cfg.get("dbg") and i / fps < cfg["dbg"]:
                print(f"judge {i / fps:6.2f} bpm {sp.bpm[k]:6.1f} pk {[round(x, 1) for x in pk]} mean {mean:.2f} contrast {contrast:.2f} heard {heard}")
            octv = np.log2(sp.bpm[k] / cfg.get("prefer", 100.0))
            halving = abs(octv - 1) + 0.85 < abs(octv)
        decide = None
        if n - position <= 2:
            decide = end + (n - position) * frame_samples - stamp_off
        elif wrapped:
            decide = end - position * frame_samples - stamp_off
        if decide is not None and decide - last_grid > 0.7 * n * frame_samples:
            last_grid = decide
            if conf_ok:
                publishing = True
            if halving and skip_next:
                skip_next = False
            else:
                skip_next = halving
                if publishing and i - last_sound < 1.5 * n:
                    beats.append(decide / sr)
        last_phase = phase
        if trace is not None and i % int(fps / 2) == 0:
            mass = np.add.reduceat(sp.p, sp.firsts)
            top = np.argsort(mass)[-3:][::-1]
            trace.append((i / fps, sp.bpm[k], position / n, conf_ok, publishing, [(round(sp.bpm[t], 1), round(mass[t], 2)) for t in top]))
    return np.array(beats)

# ---------------------------------------------------------------- scoring
def fmeasure(ref, est, win=0.07):
    if len(ref) == 0 or len(est) == 0:
        return 0.0
    used = np.zeros(len(est), bool)
    hits = 0
    for r in ref:
        d = np.abs(est - r)
        d[used] = np.inf
        j = np.argmin(d)
        if d[j] <= win:
            used[j] = True
            hits += 1
    p, rc = hits / len(est), hits / len(ref)
    return 0 if hits == 0 else 2 * p * rc / (p + rc)

def trim(ref, est, t0=5.0, win=0.07):
    r = ref[ref >= t0]
    keep = []
    for e in est:
        near = ref[np.argmin(np.abs(ref - e))] if len(ref) else e
        if abs(near - e) <= win:
            if near >= t0:
                keep.append(e)
        elif e >= t0:
            keep.append(e)
    return r, np.array(keep)

def variants(ref):
    mids = (ref[:-1] + ref[1:]) / 2
    dbl = np.sort(np.concatenate([ref, mids]))
    return [ref, dbl, ref[0::2], ref[1::2]], mids

def best_f(ref, est):
    vs, _ = variants(ref)
    out = []
    for r in vs:
        rr, ee = trim(r, est)
        out.append(fmeasure(rr, ee))
    return out[0], max(out)

def cont(ref, est, tol=0.175):
    # mir_eval-style continuity (total), for one reference
    if len(est) < 2 or len(ref) < 2:
        return 0.0
    ok = np.zeros(len(ref), bool)
    for i in range(1, len(ref)):
        j = np.argmin(np.abs(est - ref[i]))
        ri = ref[i] - ref[i - 1]
        if abs(est[j] - ref[i]) > tol * ri or j == 0:
            continue
        ei = est[j] - est[j - 1]
        if abs(ei - ri) > tol * ri:
            continue
        # previous beat also ok
        jp = np.argmin(np.abs(est - ref[i - 1]))
        if abs(est[jp] - ref[i - 1]) > tol * ri:
            continue
        ok[i] = True
    return ok.sum() / len(ref)

def amlt(ref, est):
    vs, mids = variants(ref)
    rr, ee = trim(ref, est)
    offb, _ = trim(mids, est)
    sc = []
    for r in [ref, mids] + vs[1:]:
        r2, e2 = trim(r, est)
        sc.append(cont(r2, e2))
    return sc[0], max(sc)

def lock(ref, est, win=0.07):
    if len(ref) == 0:
        return None
    run = 0
    for i, r in enumerate(ref):
        ok = len(est) > 0 and np.min(np.abs(est - r)) <= win + 1e-9
        run = run + 1 if ok else 0
        if run == 4:
            return ref[i - 3] - ref[0]
    return None

# Activations computed once per piece (BEATPROTO_CACHE, else beatproto-cache in the temporary folder).
CACHE = os.environ.get("BEATPROTO_CACHE", os.path.join(tempfile.gettempdir(), "beatproto-cache"))

def evaluate(path, cfg):
    name = os.path.basename(path)[:-4]
    cache = os.path.join(CACHE + (f"-octw{cfg['octw']}" if cfg.get("octw") else ""), name + ".npz")
    os.makedirs(os.path.dirname(cache), exist_ok=True)
    if os.path.exists(cache):
        v, fps, hop, snd = activation(None, None, cache)
        sr = int(round(fps * 2 * hop))
    else:
        x, sr = read_wav(path)
        v, fps, hop, snd = activation(x, sr, cache, cfg.get("octw", 0.0))
    ref = np.loadtxt(path[:-4] + ".beats.txt", ndmin=1) if os.path.getsize(path[:-4] + ".beats.txt") else np.zeros(0)
    est = track(v, fps, hop, sr, cfg, snd)
    f, bf = best_f(ref, est)
    c, a = amlt(ref, est)
    lk = lock(ref, est)
    return dict(name=name, f=f, bf=bf, cmlt=c, amlt=a, lock=lk, n=len(est))

if __name__ == "__main__":
    import multiprocessing as mp
    d = sys.argv[1]
    cfg = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}
    only = sys.argv[3].split(",") if len(sys.argv) > 3 else None
    files = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".wav"))
    if only:
        files = [f for f in files if any(o in f for o in only)]
    with mp.Pool(int(os.environ.get("JOBS", "2"))) as pool:
        res = pool.starmap(evaluate, [(f, cfg) for f in files])
    for r in res:
        print(f"{r['name']:24s} bf {r['bf']:.3f} f {r['f']:.3f} amlt {r['amlt']:.3f} cmlt {r['cmlt']:.3f} lock {r['lock'] if r['lock'] is None else round(r['lock'],1)}")
    bf = np.mean([r["bf"] for r in res]); am = np.mean([r["amlt"] for r in res])
    l3 = sum(1 for r in res if r["lock"] is not None and r["lock"] <= 3)
    low = [r["name"] for r in res if min(r["bf"], r["amlt"]) < 0.75]
    print(f"MEAN bf {bf:.3f} amlt {am:.3f} f {np.mean([r['f'] for r in res]):.3f} lock<=3 {l3}/{len(res)} below0.75 {len(low)} {' '.join(low)}")
    out = os.environ.get("OUT")
    if out:
        json.dump(res, open(out, "w"))
