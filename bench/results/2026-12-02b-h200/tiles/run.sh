#!/usr/bin/env bash
# r2c 2048-16384 (twiddle-new) by tiles per workgroup, twice each; cuFFT R2C once.
set -u
source bench/h200-env.sh
R="2048 4096 8192 16384"
run() { tag=$1; shift; .h200/twiddle-new bench --real --warmup 0.5 --n $R --out $OUT/$tag.csv "$@" > $OUT/$tag.log 2>&1; awk -F, -v t=$tag '$1=="twiddle"{printf "%s %s %s\n", t, $2, $6}' $OUT/$tag.csv; }
for r in 1 2; do
  run default-$r
  run t3-$r --tiles 3
  run t6-$r --tiles 6
  run t8-$r --tiles 8
done
.h200/cufft_bench --r2c --warmup 0.5 --cases ${R// /,} --out $OUT/cufft.csv > /dev/null 2>&1
awk -F, '$1=="cufft"{print "cufft", $2, $5, $6}' $OUT/cufft.csv
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
