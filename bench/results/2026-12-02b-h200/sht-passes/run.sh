#!/usr/bin/env bash
# The 4096 x 8192 x 4095 SHT stage in several passes (--max-pass-length), pass times.
set -u
source bench/h200-env.sh
for o in "" "--max-pass-length 64"; do
  t=$(echo "p$o" | tr -d ' -'); .h200/twiddle-new bench --sht 4096x8192x4095 --warmup 0.5 $o --out $OUT/$t.csv > $OUT/$t.log 2>&1
  awk -F, -v t="$t" '$1=="twiddle"{print t, $2, $7, $8, $9}' $OUT/$t.csv
done
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
