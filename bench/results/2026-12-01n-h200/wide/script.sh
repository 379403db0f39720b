#!/usr/bin/env bash
# Old (.h200/twiddle, HEAD) against new (.h200/twiddle-new, padding chosen per kernel), interleaved, cuFFT in the same run.
set -u
source bench/h200-env.sh
N=6,36,60,200,240,300,500,600,800,1001,2000,2500,3000,5000,6000,10000,15625,30030,65520,100000,243,625,1024
S=
for r in 1 2; do
  for b in old new; do
    bin=.h200/twiddle; [ $b = new ] && bin=.h200/twiddle-new
    $bin bench --n $N --warmup 0.3 --out $OUT/$b$r.csv > $OUT/$b$r.txt 2>&1
  done
done
.h200/cufft_bench --cases $N --out $OUT/cufft.csv > /dev/null 2>&1
cd $OUT && tar czf all.tgz *.csv *.txt && rm -f *.csv *.txt
python3 - <<'PY'
import csv,tarfile,io
t=tarfile.open('all.tgz')
D={}
for m in t.getmembers():
    if not m.name.endswith('.csv'): continue
    name=m.name[:-4]
    p=name[0] if name[0] in 'dr' else ''
    tag=name[len(p):].rstrip('12')
    for r in csv.reader(io.TextIOWrapper(t.extractfile(m))):
        if r and r[0]=='twiddle': D.setdefault(p+tag,{}).setdefault(r[9],[]).append((float(r[5]),r[8]))
        if r and r[0]=='cufft': D.setdefault(p+tag,{}).setdefault(r[6],[]).append((float(r[4]),'ok'))
for p in ['']:
  print({'':'f32','d':'f64','r':'r2c'}[p], 'case old new new/old cufft new/cufft')
  for k in D[p+'old']:
    a=max(x for x,_ in D[p+'old'][k]); n=max(x for x,_ in D[p+'new'][k]); c=D[p+'cufft'].get(k,[(0,0)])[0][0]
    bad=[s for _,s in D[p+'old'][k]+D[p+'new'][k] if s!='ok']
    print(k, '/'.join(f'{x:.0f}' for x,_ in D[p+'old'][k]), '/'.join(f'{x:.0f}' for x,_ in D[p+'new'][k]), f'{n/a:.3f}', f'{c:.0f}', f'{n/c if c else 0:.2f}', *bad)
PY
