import os, sys, json; sys.path.insert(0, os.path.dirname(__file__))
import numpy as np, beatproto as bp
name, cfg = sys.argv[1], json.loads(sys.argv[2])
t0, t1 = (float(x) for x in sys.argv[3].split(':')) if len(sys.argv) > 3 else (0, 30)
v, fps, hop, snd = bp.activation(None, None, os.path.join(bp.CACHE, name + '.npz')); sr = int(round(fps * 2 * hop))
ref = np.loadtxt(os.environ.get('CORPUS', '.corpus/real') + f'/{name}.beats.txt')
tr = []; est = bp.track(v, fps, hop, sr, cfg, snd, tr)
for t, bpm, ph, ok, pub, top in tr:
    if t0 <= t <= t1:
        # the true phase at t
        j = np.searchsorted(ref, t) - 1
        tp = (t - ref[j]) / (ref[j + 1] - ref[j]) if 0 <= j < len(ref) - 1 else -1
        tb = 60 / (ref[j + 1] - ref[j]) if 0 <= j < len(ref) - 1 else 0
        print(f"{t:6.1f} true {tb:6.1f} ph {tp:4.2f} | grid {bpm:6.1f} ph {ph:4.2f} conf {int(ok)} pub {int(pub)} {top}")
