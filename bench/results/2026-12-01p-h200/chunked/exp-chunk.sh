#!/usr/bin/env bash
# Branch exp-chunked: passes recorded over K chunks of the batch (TWIDDLE_EXP_CHUNKS=K), with
# and without the barrier between chunks (TWIDDLE_EXP_OVERLAP=1); cuFFT after.
set -u
source bench/h200-env.sh
S=512x512,1024x1024
N=1048576
T0=$(date +%s)
show() { awk -F, -v t=$1 -v e=$(( $(date +%s) - T0 )) '$1=="twiddle"{printf "%s %s %s %s %ss\n", t, $10, $5, $9, e}' $OUT/$1.csv; }
.h200/cufft_bench --cases $N --shapes $S --out $OUT/cufft.csv > /dev/null 2>&1
awk -F, '$1=="cufft"{print "cufft", $7, $4}' $OUT/cufft.csv
for r in 1 2; do
  for k in 1 8 16 32; do
    [ $(( $(date +%s) - T0 )) -gt 500 ] && break
    TWIDDLE_EXP_CHUNKS=$k .h200/twiddle-chunk bench --n $N --shapes $S --warmup 0.3 --max-error 1e-6 --out $OUT/k$k-$r.csv > /dev/null 2>&1; show k$k-$r
    [ $k = 1 ] || { TWIDDLE_EXP_OVERLAP=1 TWIDDLE_EXP_CHUNKS=$k .h200/twiddle-chunk bench --n $N --shapes $S --warmup 0.3 --out $OUT/o$k-$r.csv > /dev/null 2>&1; show o$k-$r; }
  done
done
cd $OUT && tar czf all.tgz *.csv && rm -f *.csv
