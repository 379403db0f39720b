#!/usr/bin/env bash
# Strided dims first (main, uncommitted on dcc1c6c): 2D twice with cuFFT in turn, then the rest of
# issue 3's cases that the dim order touches (256^3) and a few 1D checks.
set -u
source bench/h200-env.sh
T0=$(date +%s)
show() { awk -F, -v t=$1 -v e=$(( $(date +%s) - T0 )) '$1=="twiddle"{printf "%s %s %s %s %s %ss\n", t, $10, $5, $6, $9, e}' $OUT/$1.csv; }
showc() { awk -F, -v t=$1 '$1=="cufft"{print t, $7, $4, $5}' $OUT/$1.csv; }
S=256x256,512x512,1024x1024,2048x2048,4096x4096
for r in 1 2; do
  .h200/cufft_bench --shapes $S --out $OUT/cufft-$r.csv > /dev/null 2>&1; showc cufft-$r
  .h200/twiddle bench --shapes $S --out $OUT/twiddle-$r.csv > /dev/null 2>&1; show twiddle-$r
done
[ $(( $(date +%s) - T0 )) -lt 250 ] && {
  .h200/cufft_bench --cases 100,1000,1536,4095 --shapes 256x256x256 --out $OUT/cufft-3.csv > /dev/null 2>&1; showc cufft-3
  timeout 200 .h200/twiddle bench --n 100 1000 1536 4095 --shapes 256x256x256 --out $OUT/twiddle-3.csv > /dev/null 2>&1; show twiddle-3
}
cd $OUT && tar czf all.tgz *.csv && rm -f *.csv
