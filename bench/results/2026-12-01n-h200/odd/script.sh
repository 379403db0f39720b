#!/usr/bin/env bash
# Interleaved A/N: default against pad() identity on one-pass lengths whose power-of-two factor is <= 8.
set -u
source bench/h200-env.sh
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader -lms 500 > $OUT/clocks.csv 2>&1 &
SMI=$!
N=12,24,40,56,72,100,120,125,243,343,625,729,1000,2187,3125,4095,6561,17,97,401,1009,4001,10007
F=100,1000,4095,97,401
for r in 1 2; do
  for tag in A N; do
    case $tag in A) e=X=1;; N) e=TWIDDLE_EXP_NOPAD=1;; esac
    env $e .h200/twiddle-exp bench --n $N --shapes 97x97,25x25x25 --warmup 0.5 --out $OUT/$tag$r.csv > /dev/null 2>&1
    env $e .h200/twiddle-exp bench --f64 --n $F --warmup 0.5 --out $OUT/d$tag$r.csv > /dev/null 2>&1
  done
done
kill $SMI
.h200/cufft_bench --cases $N --shapes 97x97,25x25x25 --out $OUT/cufft.csv > /dev/null 2>&1
.h200/cufft_bench --z2z --cases $F --out $OUT/dcufft.csv > /dev/null 2>&1
cd $OUT && tar czf all.tgz *.csv && rm -f *.csv
python3 - <<'PY'
import csv,tarfile,io
t=tarfile.open('all.tgz')
D={}
for m in t.getmembers():
    p='d' if m.name.startswith('d') else ''
    tag=m.name[len(p)]
    for r in csv.reader(io.TextIOWrapper(t.extractfile(m))):
        if r and r[0]=='twiddle': D.setdefault(p+tag,{}).setdefault(r[9],[]).append((float(r[5]),r[8]))
        if r and r[0]=='cufft': D.setdefault(p+'C',{}).setdefault(r[6],[]).append((float(r[4]),'ok'))
for p in ['','d']:
  print('f64' if p else 'f32', 'case  A  N  N/A  cufft  N/cufft')
  for k in D[p+'A']:
    a=max(x for x,_ in D[p+'A'][k]); n=max(x for x,_ in D[p+'N'][k]); c=D[p+'C'].get(k,[(0,0)])[0][0]
    bad=[s for _,s in D[p+'A'][k]+D[p+'N'][k] if s!='ok']
    print(k, '/'.join(f'{x:.0f}' for x,_ in D[p+'A'][k]), '/'.join(f'{x:.0f}' for x,_ in D[p+'N'][k]), f'{n/a:.3f}', f'{c:.0f}', f'{n/c if c else 0:.2f}', *bad)
PY
awk -F, '{print $1}' clocks.csv | sort | uniq -c | sort -rn | head -3
