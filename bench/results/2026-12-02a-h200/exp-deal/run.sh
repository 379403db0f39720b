#!/usr/bin/env bash
# Fused split's last-stage dealing: the table dealing without bank conflicts (deal) against the formula (base), interleaved twice.
set -u
source bench/h200-env.sh
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 ))s; }
show() { awk -F, -v t=$1 '$1=="twiddle"{printf "%s %s %s %s %s %s\n", t, ($10==""?$2:$10), $5, $6, $8, $9}' $OUT/$1.csv; }
R="2048 4096 8192 16384 65536"
for r in 1 2; do
  for v in base deal; do
    if [ $v = base ]; then unset TWIDDLE_EXP_DEAL; else export TWIDDLE_EXP_DEAL=1; fi
    .h200/twiddle-exp bench --real --warmup 0.5 --n $R --out $OUT/r2c-$v-$r.csv > /dev/null 2>&1; show r2c-$v-$r
    el
  done
done
.h200/twiddle-exp bench --real --kernel-stats --warmup 0.2 --n 4096 8192 16384 > $OUT/stats-base.log 2>&1
TWIDDLE_EXP_DEAL=1 .h200/twiddle-exp bench --real --kernel-stats --warmup 0.2 --n 4096 8192 16384 > $OUT/stats-deal.log 2>&1
grep -i "regist\|spill" $OUT/stats-*.log | head -20
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
