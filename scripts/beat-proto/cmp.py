import json,sys
a={r['name']:r for r in json.load(open(sys.argv[1]))}; b={r['name']:r for r in json.load(open(sys.argv[2]))}
for n in sorted(a):
    x,y=a[n],b.get(n)
    if not y: continue
    if abs(x['bf']-y['bf'])>0.01 or abs(x['amlt']-y['amlt'])>0.01 or (x['lock'] or 99)//3!=(y['lock'] or 99)//3:
        print(f"{n:24s} bf {x['bf']:.3f}->{y['bf']:.3f} amlt {x['amlt']:.3f}->{y['amlt']:.3f} lock {x['lock']}->{y['lock']}")
