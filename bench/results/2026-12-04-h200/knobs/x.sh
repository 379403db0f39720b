#!/usr/bin/env bash
# The planner's knobs at the lengths issue 6 finds slowest against cuFFT (2^20, 2^21, 2048^2,
# 4096^2, batched to 2^26 values), twiddle at 2d2c7ea, cuFFT in the same call before and after.
set -u
source bench/h200-env.sh
B=.h200/twiddle
N=1048576,2097152
S=2048x2048,4096x4096
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
.h200/cufft_bench --cases $N --shapes $S --warmup 0.5 --out $OUT/cufft-1.csv > $OUT/cufft-1.log 2>&1
i=0
while read -r name args; do
  i=$((i+1))
  TWIDDLE_CACHE_DIR=/tmp/tc-$name $B bench --n $N --shapes $S --warmup 0.5 --pass-times $args --out $OUT/$name.csv > $OUT/$name.log 2>&1
done <<'VARS'
default
shared48k --shared 49152
shared48k-c8 --shared 49152 --columns 8
shared48k-c16 --shared 49152 --columns 16
c8 --columns 8
c2 --columns 2
c16 --columns 16
c32 --columns 32
tiles2 --tiles 2
tiles4 --tiles 4
radix32 --max-radix 32
radix8 --max-radix 8
shared12k --shared 12288
len256 --max-pass-length 256
len128 --max-pass-length 128
default2
VARS
.h200/cufft_bench --cases $N --shapes $S --warmup 0.5 --out $OUT/cufft-2.csv > $OUT/cufft-2.log 2>&1
for c in 1 2; do awk -F, -v t=cufft-$c 'NR>1 && $1!="copy"{printf "%-14s %s %s\n", t, $2, $0}' $OUT/cufft-$c.csv | cut -c1-90; done
for f in $OUT/*.log; do n=$(basename $f .log); case $n in cufft*) continue;; esac; grep -E "^ +[0-9x]+ " $f | awk -v t=$n '{printf "%-14s %s\n", t, $0}' | cut -c1-150; done
cat $OUT/gpu.txt
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
