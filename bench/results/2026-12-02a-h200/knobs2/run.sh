#!/usr/bin/env bash
# r2c 8192 and 16384, and the 8192-point SHT stage, under planner options, against the default, twice.
set -u
source bench/h200-env.sh
show() { awk -F, -v t=$1 '$1=="twiddle"{printf "%s %s %s %s\n", t, $2, $6, $9}' $OUT/$1.csv; }
shows() { awk -F, -v t=$1 '$1=="twiddle"{printf "%s %s %s %s\n", t, $2, $9, $12}' $OUT/$1.csv; }
for r in 1 2; do
  i=0
  for o in "" "--max-radix 16" "--tiles 4" "--tiles 2" "--shared 65536" "--max-radix 16 --tiles 4"; do
    i=$((i+1))
    .h200/twiddle bench --real --warmup 0.5 $o --n 8192 16384 --out $OUT/r2c-$i-$r.csv > /dev/null 2>&1; show "r2c-$i-$r[$o]"
  done
  i=0
  for o in "" "--tiles 2" "--tiles 8" "--tiles 1" "--columns 2" "--columns 8"; do
    i=$((i+1))
    .h200/twiddle bench --sht 4096x8192x4095 --warmup 0.5 $o --out $OUT/sht-$i-$r.csv > /dev/null 2>&1; shows "sht-$i-$r[$o]"
  done
done
cd $OUT && tar czf all.tgz *.csv && rm -f *.csv
