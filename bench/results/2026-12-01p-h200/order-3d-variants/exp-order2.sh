#!/usr/bin/env bash
# Branch exp-fused: strided dim first (TWIDDLE_EXP_STRIDED_FIRST=1) on 3D and 4096^2, and planner
# variants of 512^2 and 1024^2 with it; cuFFT first.
set -u
source bench/h200-env.sh
T0=$(date +%s)
show() { awk -F, -v t=$1 -v e=$(( $(date +%s) - T0 )) '$1=="twiddle"{printf "%s %s %s %s %ss\n", t, $10, $5, $9, e}' $OUT/$1.csv; }
S3=64x64x64,128x128x128,4096x4096
S2=512x512,1024x1024
.h200/cufft_bench --shapes $S3,$S2 --out $OUT/cufft.csv > /dev/null 2>&1
awk -F, '$1=="cufft"{print "cufft", $7, $4}' $OUT/cufft.csv
.h200/twiddle-fuse bench --shapes $S3 --warmup 0.5 --out $OUT/base3.csv > /dev/null 2>&1; show base3
TWIDDLE_EXP_STRIDED_FIRST=1 .h200/twiddle-fuse bench --shapes $S3 --warmup 0.5 --out $OUT/sf3.csv > /dev/null 2>&1; show sf3
for v in "sf" "c4 --columns 4" "c16 --columns 16" "t2 --tiles 2" "t8 --tiles 8" "sf2"; do
  set -- $v; name=$1; shift
  [ $(( $(date +%s) - T0 )) -gt 500 ] && break
  TWIDDLE_EXP_STRIDED_FIRST=1 .h200/twiddle-fuse bench --shapes $S2 --warmup 0.5 "$@" --out $OUT/$name.csv > /dev/null 2>&1; show $name
done
cd $OUT && tar czf all.tgz *.csv && rm -f *.csv
