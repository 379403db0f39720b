#!/usr/bin/env bash
# Interleaved A/B/C processes: default, sign branches everywhere, pad() identity; clocks sampled.
set -u
source bench/h200-env.sh
nvidia-smi -q -d CLOCK,PERFORMANCE,POWER > $OUT/smi-q.txt 2>&1
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader -lms 250 > $OUT/clocks.csv 2>&1 &
SMI=$!
N=1000,100,1024,8192,1536,4095,2048
for r in 1 2 3; do
  for tag in A S N; do
    case $tag in A) e=X=1;; S) e=TWIDDLE_EXP_SIGNBR=1;; N) e=TWIDDLE_EXP_NOPAD=1;; esac
    env $e .h200/twiddle-exp bench --n $N --warmup 0.5 --out $OUT/$tag$r.csv > /dev/null 2>&1
  done
done
kill $SMI
.h200/cufft_bench --cases $N --out $OUT/cufft.csv > /dev/null 2>&1
cd $OUT && tar czf all.tgz *.csv && rm -f [ASN]?.csv
python3 - <<'PY'
import csv,glob,tarfile,io,statistics as st
t=tarfile.open('all.tgz')
D={}
for m in t.getmembers():
    for r in csv.reader(io.TextIOWrapper(t.extractfile(m))):
        if r and r[0]=='twiddle': D.setdefault(m.name[0],{}).setdefault(r[9],[]).append(float(r[5]))
        if r and r[0]=='cufft': D.setdefault('C',{}).setdefault(r[6],[]).append(float(r[4]))
print('case  A(3 runs)  S  N  cufft')
for k in D['A']:
    print(k, *[','.join(f'{x:.0f}' for x in D[t][k]) for t in 'ASN'], D['C'].get(k))
PY
awk -F, '{print $1}' clocks.csv | sort | uniq -c | sort -rn | head -5
awk -F, '{print $5}' clocks.csv | sort | uniq -c | sort -rn | head -5
grep -A3 -i "clocks_event_reasons\|Clocks Event\|Performance State" smi-q.txt | head -30
