#!/usr/bin/env bash
# HEAD's order (twiddle-fuse, no switches) against strided dims first (twiddle-sf), and with the
# contiguous pass looping over 2 tiles (TWIDDLE_EXP_ROWTILES=2), interleaved twice; cuFFT first.
set -u
source bench/h200-env.sh
T0=$(date +%s)
show() { awk -F, -v t=$1 -v e=$(( $(date +%s) - T0 )) '$1=="twiddle"{printf "%s %s %s %s %ss\n", t, $10, $5, $9, e}' $OUT/$1.csv; }
S=256x256,512x512,1024x1024,2048x2048,4096x4096
.h200/cufft_bench --shapes $S --out $OUT/cufft.csv > /dev/null 2>&1
awk -F, '$1=="cufft"{print "cufft", $7, $4}' $OUT/cufft.csv
for r in 1 2; do
  [ $(( $(date +%s) - T0 )) -gt 480 ] && break
  .h200/twiddle-fuse bench --shapes $S --warmup 0.5 --out $OUT/head-$r.csv > /dev/null 2>&1; show head-$r
  .h200/twiddle-sf bench --shapes $S --warmup 0.5 --out $OUT/sf-$r.csv > /dev/null 2>&1; show sf-$r
  TWIDDLE_EXP_ROWTILES=2 .h200/twiddle-sf bench --shapes $S --warmup 0.5 --out $OUT/sft2-$r.csv > /dev/null 2>&1; show sft2-$r
done
.h200/cufft_bench --shapes $S --out $OUT/cufft2.csv > /dev/null 2>&1
awk -F, '$1=="cufft"{print "cufft2", $7, $4}' $OUT/cufft2.csv
cd $OUT && tar czf all.tgz *.csv && rm -f *.csv
