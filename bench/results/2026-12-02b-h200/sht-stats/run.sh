#!/usr/bin/env bash
# Registers of the SHT stage's kernels (default, --tiles 2, --max-radix 32 --tiles 2), and r2c/c2c with --tiles 1.
set -u
source bench/h200-env.sh
for o in "" "--tiles 2" "--max-radix 32 --tiles 2" "--tiles 1"; do
  echo "== sht $o"; .h200/twiddle-stats bench --sht 4096x8192x4095 --kernel-stats --warmup 0.3 $o 2>&1 | grep -E "pass|synthesis|analysis" | cut -c1-200
done > $OUT/sht-stats.log
cat $OUT/sht-stats.log
show() { awk -F, -v t=$1 '$1=="twiddle"{printf "%s %s %s %s\n", t, $2, $6, $8}' $OUT/$1.csv; }
for r in 1 2; do
  .h200/twiddle-new bench --real --warmup 0.5 --n 2048 4096 8192 --out $OUT/r-default-$r.csv > /dev/null 2>&1; show r-default-$r
  .h200/twiddle-new bench --real --warmup 0.5 --n 2048 4096 8192 --tiles 1 --out $OUT/r-tiles1-$r.csv > /dev/null 2>&1; show r-tiles1-$r
done
.h200/twiddle-new bench --real --kernel-stats --warmup 0.1 --n 2048 4096 8192 --tiles 1 2>&1 | grep "pass 0" | cut -c1-60
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
