#!/usr/bin/env bash
# The 4096 x 8192 x 4095 SHT stage under planner options (one field), twice each.
set -u
source bench/h200-env.sh
run() { tag=$1; shift; .h200/twiddle bench --sht 4096x8192x4095 --warmup 0.5 --out $OUT/sht-$tag.csv "$@" > $OUT/sht-$tag.log 2>&1; awk -F, -v t=$tag '$1=="twiddle"{printf "%s %s %s %s\n", t, $2, $8, $9}' $OUT/sht-$tag.csv; }
for r in 1 2; do
  run default-$r
  run r8w1024-$r --max-radix 8 --workgroup 1024
  run r32-$r --max-radix 32
  run r8-$r --max-radix 8
  run r32t2-$r --max-radix 32 --tiles 2
done
.h200/cufft_bench --sht --warmup 0.5 --out $OUT/cufft-sht.csv > $OUT/cufft-sht.log 2>&1; cat $OUT/cufft-sht.csv | tail -3
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
