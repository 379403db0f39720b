#!/usr/bin/env bash
# The SHT stage in one pass against two (--sht-passes), 1 and 8 fields; the cuFFT stage.
set -u
source bench/h200-env.sh
for f in 1 8; do
  for p in one two; do
    .h200/twiddle-2p bench --sht 4096x8192x4095,1024x2048x1023 --fields $f --sht-passes $p --warmup 0.5 --out $OUT/sht-$p-$f.csv > $OUT/sht-$p-$f.log 2>&1
    awk -F, -v t=$p-$f '$1=="twiddle"{print t, $2, $3, $4, $7, $8, $9, $10, $11}' $OUT/sht-$p-$f.csv
  done
  .h200/cufft_bench --sht --fields $f --warmup 0.5 --out $OUT/cufft-sht-$f.csv > $OUT/cufft-sht-$f.log 2>&1
  awk -F, '$1=="cufft"{print "cufft", $2, $3, $4, $7, $8, $9}' $OUT/cufft-sht-$f.csv
done
.h200/twiddle-2p bench --sht 4096x8192x4095 --sht-passes two --kernel-stats --warmup 0.2 --out $OUT/stats.csv > $OUT/stats.log 2>&1; grep -iE "registers|local memory" $OUT/stats.log | sort | uniq -c | head -20
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
