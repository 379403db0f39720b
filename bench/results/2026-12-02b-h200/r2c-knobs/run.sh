#!/usr/bin/env bash
# r2c 2048-16384 (and c2c 2048-16384) under planner options, twiddle-new, twice each; cuFFT R2C once.
set -u
source bench/h200-env.sh
R="2048 4096 8192 16384 32768"
run() { tag=$1; shift; .h200/twiddle-new bench --warmup 0.5 --out $OUT/$tag.csv "$@" > $OUT/$tag.log 2>&1; awk -F, -v t=$tag '$1=="twiddle"{printf "%s %s %s %s\n", t, $2, $6, $8}' $OUT/$tag.csv; }
for r in 1 2; do
  run default-$r --real --n $R
  run wg128-$r --real --n $R --workgroup 128
  run r8-$r --real --n $R --max-radix 8
  run r32-$r --real --n $R --max-radix 32
  run c-default-$r --n 2048 4096 8192 16384
  run c-r32-$r --n 2048 4096 8192 16384 --max-radix 32
done
.h200/cufft_bench --r2c --warmup 0.5 --cases ${R// /,} --out $OUT/cufft.csv > /dev/null 2>&1
awk -F, '$1=="cufft"{print "cufft", $2, $5, $6}' $OUT/cufft.csv
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
