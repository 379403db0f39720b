#!/usr/bin/env bash
# Branch exp-fused: 2D with the strided dim first (TWIDDLE_EXP_STRIDED_FIRST=1) against HEAD's
# order, interleaved three times; cuFFT first.
set -u
source bench/h200-env.sh
S=256x256,512x512,1024x1024,2048x2048
T0=$(date +%s)
show() { awk -F, -v t=$1 -v e=$(( $(date +%s) - T0 )) '$1=="twiddle"{printf "%s %s %s %s %ss\n", t, $10, $5, $9, e}' $OUT/$1.csv; }
.h200/cufft_bench --shapes $S --out $OUT/cufft.csv > /dev/null 2>&1
awk -F, '$1=="cufft"{print "cufft", $7, $4}' $OUT/cufft.csv
for r in 1 2 3; do
  [ $(( $(date +%s) - T0 )) -gt 500 ] && break
  .h200/twiddle-fuse bench --shapes $S --warmup 0.5 --out $OUT/base-$r.csv > /dev/null 2>&1; show base-$r
  TWIDDLE_EXP_STRIDED_FIRST=1 .h200/twiddle-fuse bench --shapes $S --warmup 0.5 --out $OUT/sf-$r.csv > /dev/null 2>&1; show sf-$r
done
cd $OUT && tar czf all.tgz *.csv && rm -f *.csv
