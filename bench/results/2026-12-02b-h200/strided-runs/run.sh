#!/usr/bin/env bash
# Strided passes of 4096^2 by columns per workgroup (runs of 8 B x columns), pass times.
set -u
source bench/h200-env.sh
for o in "" "--columns 2" "--columns 4" "--columns 8" "--columns 16" "--columns 32"; do
  t=$(echo "c$o" | tr -d ' -'); .h200/twiddle-new bench --shapes 4096x4096 --pass-times --warmup 0.5 $o --out $OUT/$t.csv > $OUT/$t.log 2>&1
  awk -F, -v t="$t" '$1=="twiddle"{print t, $4, $5, $6, $11}' $OUT/$t.csv
done
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
