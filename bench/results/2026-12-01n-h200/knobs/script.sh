#!/usr/bin/env bash
# A/B: pad() identity (TWIDDLE_EXP_NOPAD) and sign/scale branches for all one-pass kernels (TWIDDLE_EXP_SIGNBR)
set -u
source bench/h200-env.sh
N=1000,100,1536,4095,512,1024,2048,4096,8192,65536,1048576,10007
S=512x512,1024x1024,2048x2048
run() { tag=$1; shift; echo "=== $tag $*"; env "$@" .h200/twiddle-exp bench --n $N --shapes $S --out $OUT/$tag.csv > $OUT/$tag.txt 2>&1; tail -n +2 $OUT/$tag.txt | awk '{print $1, $5}' | tr '\n' ' '; echo; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt
run A0 X=1
run N  TWIDDLE_EXP_NOPAD=1
run S  TWIDDLE_EXP_SIGNBR=1
run NS TWIDDLE_EXP_NOPAD=1 TWIDDLE_EXP_SIGNBR=1
run A1 X=1
.h200/cufft_bench --cases $N --shapes $S --out $OUT/cufft.csv > $OUT/cufft.txt 2>&1
python3 - <<'PY'
import csv,os
out=os.environ['OUT']
def load(f):
    d={}
    for r in csv.reader(open(f)):
        if r and r[0] in('twiddle','cufft'):
            d[r[9] if r[0]=='twiddle' else r[6]]=float(r[5] if r[0]=='twiddle' else r[4])
    return d
tags=['A0','N','S','NS','A1']
T={t:load(f'{out}/{t}.csv') for t in tags}
C=load(f'{out}/cufft.csv')
print('case', *tags, 'cufft', 'best/cufft')
for k in T['A0']:
    v=[T[t].get(k,0) for t in tags]
    print(k, *[f'{x:.0f}' for x in v], f"{C.get(k,0):.0f}", f"{max(v)/C[k] if k in C else 0:.3f}")
PY
