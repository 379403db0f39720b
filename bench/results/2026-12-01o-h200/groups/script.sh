#!/usr/bin/env bash
# HEAD (A) against reversed alternate passes with tile groups G (0: the old stride order), interleaved twice; cuFFT after.
set -u
source bench/h200-env.sh
S=512x512,1024x1024,2048x2048,4096x4096,256x256x256
N=512,1024,65536,1048576,4194304,16777216
for r in 1 2; do
  .h200/twiddle bench --n $N --shapes $S --warmup 0.5 --out $OUT/A$r.csv > $OUT/A$r.txt 2>&1
  for g in 0 64 128 256; do
    TWIDDLE_EXP_GROUP=$g .h200/twiddle-new bench --n $N --shapes $S --warmup 0.5 --out $OUT/G$g-$r.csv > $OUT/G$g-$r.txt 2>&1
  done
done
.h200/cufft_bench --cases $N --shapes $S --out $OUT/cufft.csv > $OUT/cufft.txt 2>&1
cd $OUT && tar czf all.tgz *.csv *.txt && rm -f *.csv *.txt
python3 - <<'PY'
import csv,tarfile,io
t=tarfile.open('all.tgz')
D={}; order=[]
for m in sorted(t.getmembers(), key=lambda m:m.name):
    if not m.name.endswith('.csv'): continue
    tag=m.name[:-4]
    for r in csv.reader(io.TextIOWrapper(t.extractfile(m))):
        if r and r[0]=='twiddle':
            D.setdefault(r[9],{})[tag]=(float(r[4]),r[8])
            if r[9] not in order: order.append(r[9])
        if r and r[0]=='cufft': D.setdefault(r[6],{})['cufft']=(float(r[3]),'ok')
tags=['A1','A2','G0-1','G0-2','G64-1','G64-2','G128-1','G128-2','G256-1','G256-2','cufft']
print('ms', *tags)
for k in order:
    print(k, *[f"{D[k].get(t,(0,''))[0]:.4f}" + ('' if D[k].get(t,(0,'ok'))[1]=='ok' else '!') for t in tags])
PY
