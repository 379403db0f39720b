#!/usr/bin/env bash
# lastpass/'s change at the other plans it touches: f64 2^17 and 2^18 (two narrow passes in f64),
# against 2d2c7ea alternated twice, cuFFT Z2Z in the same call (bench times no c2r).
set -u
source bench/h200-env.sh
N=131072,262144
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
.h200/cufft_bench --cases $N --z2z --warmup 0.5 --out $OUT/cufft-z2z.csv > $OUT/cufft-z2z.log 2>&1
for r in 1 2; do
  for b in twiddle twiddle-new; do
    TWIDDLE_CACHE_DIR=/tmp/tc-$b .h200/$b bench --n $N --f64 --warmup 0.5 --pass-times --out $OUT/$b-f64-$r.csv > $OUT/$b-f64-$r.log 2>&1
  done
done
grep -v "^library\|^copy" $OUT/cufft-z2z.csv | cut -d, -f1-8 | sed "s/^/cufft-z2z /"
for r in 1 2; do for b in twiddle twiddle-new; do grep -E "^ +[0-9x]+ " $OUT/$b-f64-$r.log | awk -v t=$b-f64-$r '{printf "%-18s %s\n", t, $0}' | cut -c1-150; done; done
cat $OUT/gpu.txt
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
