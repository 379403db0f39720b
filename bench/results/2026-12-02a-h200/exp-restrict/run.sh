#!/usr/bin/env bash
# restrict on the twiddle table (tw), and on every buffer (all), against none (base), interleaved twice.
set -u
source bench/h200-env.sh
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 ))s; }
show() { awk -F, -v t=$1 '$1=="twiddle"{printf "%s %s %s %s %s\n", t, ($10==""?$2:$10), $5, $6, $9}' $OUT/$1.csv; }
R="256 1024 2048 4096 8192 16384 32768 65536"
for r in 1 2; do
  for v in base tw all; do
    if [ $v = base ]; then unset TWIDDLE_EXP_RESTRICT; else export TWIDDLE_EXP_RESTRICT=$v; fi
    .h200/twiddle-exp bench --real --warmup 0.5 --n $R --out $OUT/r2c-$v-$r.csv > /dev/null 2>&1; show r2c-$v-$r
    .h200/twiddle-exp bench --warmup 0.5 --n 1024 2048 4096 8192 1048576 --shapes 1024x1024 --out $OUT/c2c-$v-$r.csv > /dev/null 2>&1; show c2c-$v-$r
    .h200/twiddle-exp bench --sht 1024x2048x1023 4096x8192x4095 --warmup 0.5 --out $OUT/sht-$v-$r.csv > /dev/null 2>&1
    awk -F, -v t=sht-$v-$r '$1=="twiddle"{print t, $2, $4, $8, $9}' $OUT/sht-$v-$r.csv
    el
  done
done
cd $OUT && tar czf all.tgz *.csv && rm -f *.csv
