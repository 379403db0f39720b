#!/usr/bin/env bash
# Issue 4's cases with equal warm-ups on both sides: r2c 2^8..2^20 (0.5 s twice, 1 s once), and the
# SHT stage (1 and 8 fields).
set -u
source bench/h200-env.sh
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 ))s; }
show() { awk -F, -v t=$1 '$1=="twiddle"{printf "%s %s %s %s %s\n", t, ($10==""?$2:$10), $5, $6, $9}' $OUT/$1.csv; }
showc() { awk -F, -v t=$1 '$1=="cufft"{print t, ($7==""?$2:$7), $4, $5}' $OUT/$1.csv; }
N="256 512 1024 2048 4096 8192 16384 32768 65536 131072 262144 524288 1048576"
for w in 0.5 1 0.5; do
  .h200/cufft_bench --r2c --warmup $w --cases ${N// /,} --out $OUT/cufft-r2c-$w.csv > /dev/null 2>&1
  .h200/twiddle bench --real --warmup $w --n $N --out $OUT/twiddle-r2c-$w.csv > /dev/null 2>&1
  join <(awk -F, '$1=="cufft"{print $2, $5}' $OUT/cufft-r2c-$w.csv | sort) \
       <(awk -F, '$1=="twiddle"{print $2, $6, $9}' $OUT/twiddle-r2c-$w.csv | sort) | sort -n |
    awk -v w=$w '{printf "r2c w%s %s cufft %s twiddle %s %s ratio %.3f\n", w, $1, $2, $3, $4, $3/$2}'
  el
done
for f in 1 8; do
  .h200/cufft_bench --sht --fields $f --warmup 0.5 --out $OUT/cufft-sht-$f.csv > $OUT/cufft-sht-$f.log 2>&1
  .h200/twiddle bench --sht 1024x2048x1023 4096x8192x4095 --fields $f --warmup 0.5 --out $OUT/twiddle-sht-$f.csv > $OUT/twiddle-sht-$f.log 2>&1
  tail -4 $OUT/cufft-sht-$f.log; tail -6 $OUT/twiddle-sht-$f.log; el
done
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
