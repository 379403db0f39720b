#!/usr/bin/env bash
# r2c rows at a pitch of n/2 points (aligned; rows overlap by the Nyquist point, so the error gate is off) against n/2 + 1, interleaved twice; c2c n/2 for reference.
set -u
source bench/h200-env.sh
show() { awk -F, -v t=$1 '$1=="twiddle"{printf "%s %s %s %s\n", t, $2, $6, $8}' $OUT/$1.csv; }
N="1024 2048 4096 8192 16384"
for r in 1 2; do
  unset TWIDDLE_EXP_PITCH
  .h200/twiddle-exp bench --real --warmup 0.5 --max-error 1e9 --n $N --out $OUT/base-$r.csv > /dev/null 2>&1; show base-$r
  export TWIDDLE_EXP_PITCH=1
  .h200/twiddle-exp bench --real --warmup 0.5 --max-error 1e9 --n $N --out $OUT/pitch-$r.csv > /dev/null 2>&1; show pitch-$r
done
unset TWIDDLE_EXP_PITCH
.h200/twiddle-exp bench --warmup 0.5 --n 512 1024 2048 4096 8192 --out $OUT/c2c.csv > /dev/null 2>&1; show c2c
cd $OUT && tar czf all.tgz *.csv && rm -f *.csv
