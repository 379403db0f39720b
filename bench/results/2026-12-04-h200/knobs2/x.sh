#!/usr/bin/env bash
# knobs/ again, small: the default plans, 32 columns (three wide passes) and 8 columns with all
# 48 KiB of shared memory, against cuFFT in the same call (before and after). Binary of 2d2c7ea.
set -u
source bench/h200-env.sh
B=.h200/twiddle
N=1048576,2097152
S=2048x2048,4096x4096
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
.h200/cufft_bench --cases $N --shapes $S --warmup 0.5 --out $OUT/cufft-1.csv > $OUT/cufft-1.log 2>&1
TWIDDLE_CACHE_DIR=/tmp/tc-d $B bench --n $N --shapes $S --warmup 0.5 --pass-times --out $OUT/default.csv > $OUT/default.log 2>&1
TWIDDLE_CACHE_DIR=/tmp/tc-c32 $B bench --n $N --shapes $S --warmup 0.5 --columns 32 --out $OUT/c32.csv > $OUT/c32.log 2>&1
TWIDDLE_CACHE_DIR=/tmp/tc-s8 $B bench --n $N --shapes $S --warmup 0.5 --shared 49152 --columns 8 --pass-times --out $OUT/s48c8.csv > $OUT/s48c8.log 2>&1
.h200/cufft_bench --cases $N --shapes $S --warmup 0.5 --out $OUT/cufft-2.csv > $OUT/cufft-2.log 2>&1
for c in 1 2; do grep -v "^library\|^copy" $OUT/cufft-$c.csv | cut -d, -f1-8 | sed "s/^/cufft-$c /"; done
for n in default c32 s48c8; do grep -E "^ +[0-9x]+ " $OUT/$n.log | awk -v t=$n '{printf "%-8s %s\n", t, $0}' | cut -c1-150; done
cat $OUT/gpu.txt
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
