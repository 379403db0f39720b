#!/usr/bin/env bash
# The last of two narrow-tile passes with all 48 KiB of shared memory (twiddle-new) against
# 2d2c7ea (twiddle), alternated twice, cuFFT in the same call; c2c 2^18 to 2^20 and r2c 2^19 to
# 2^21 (the lengths whose plans the change touches or borders).
set -u
source bench/h200-env.sh
N=262144,524288,1048576
R=524288,1048576,2097152
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
.h200/cufft_bench --cases $N --warmup 0.5 --out $OUT/cufft.csv > $OUT/cufft.log 2>&1
.h200/cufft_bench --cases $R --r2c --warmup 0.5 --out $OUT/cufft-r2c.csv > $OUT/cufft-r2c.log 2>&1
for r in 1 2; do
  for b in twiddle twiddle-new; do
    TWIDDLE_CACHE_DIR=/tmp/tc-$b .h200/$b bench --n $N --warmup 0.5 --pass-times --out $OUT/$b-c2c-$r.csv > $OUT/$b-c2c-$r.log 2>&1
    TWIDDLE_CACHE_DIR=/tmp/tc-$b .h200/$b bench --n $R --real --warmup 0.5 --out $OUT/$b-r2c-$r.csv > $OUT/$b-r2c-$r.log 2>&1
  done
done
for f in cufft cufft-r2c; do grep -v "^library\|^copy" $OUT/$f.csv | cut -d, -f1-8 | sed "s/^/$f /"; done
for r in 1 2; do for b in twiddle twiddle-new; do for k in c2c r2c; do grep -E "^ +[0-9x]+ " $OUT/$b-$k-$r.log | awk -v t=$b-$k-$r '{printf "%-18s %s\n", t, $0}' | cut -c1-150; done; done; done
cat $OUT/gpu.txt
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
