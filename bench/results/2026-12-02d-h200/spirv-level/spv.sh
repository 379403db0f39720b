#!/usr/bin/env bash
# SPIR-V from shaderc at the performance level (default) against level zero (TW_SPV_LEVEL0=1):
# kernel speed and cold/warm plan time. Separate kernel-cache directories per variant.
set -u
source bench/h200-env.sh
for v in perf zero; do
  E=X=1; [ $v = zero ] && E=TW_SPV_LEVEL0=1
  env $E TWIDDLE_CACHE_DIR=/tmp/cache-$v timeout 60 .h200/twiddle bench --n 256 1024 4096 65536 --warmup 0.3 --out $OUT/c2c-$v.csv > $OUT/c2c-$v.log 2>&1
  env $E TWIDDLE_CACHE_DIR=/tmp/cache-$v timeout 40 .h200/twiddle bench --real --n 4096 16384 --warmup 0.3 --out $OUT/r2c-$v.csv > $OUT/r2c-$v.log 2>&1
  awk -F, -v t=$v '$1=="twiddle"{printf "%s %s %s %s\n", t, $2, $6, $8}' $OUT/c2c-$v.csv $OUT/r2c-$v.csv
  env $E timeout 50 .h200/twiddle bench --plan-time --n 1024 4096 65536 > $OUT/plan-$v.log 2>&1
  tail -6 $OUT/plan-$v.log | sed "s/^/$v /"
done
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
