#!/usr/bin/env bash
# r2c with a split through shuffles holding its stage twiddles in registers (held) against main (base), interleaved twice; cuFFT R2C once.
set -u
source bench/h200-env.sh
show() { awk -F, -v t=$1 '$1=="twiddle"{printf "%s %s %s %s %s\n", t, $2, $5, $6, $9}' $OUT/$1.csv; }
N="4096 8192 16384 32768"
for r in 1 2; do
  .h200/twiddle bench --real --warmup 0.5 --n $N --out $OUT/base-$r.csv > /dev/null 2>&1; show base-$r
  .h200/twiddle-held bench --real --warmup 0.5 --n $N --out $OUT/held-$r.csv > /dev/null 2>&1; show held-$r
done
.h200/cufft_bench --r2c --warmup 0.5 --cases ${N// /,} --out $OUT/cufft.csv > /dev/null 2>&1
awk -F, '$1=="cufft"{print "cufft", $2, $4, $5}' $OUT/cufft.csv
.h200/twiddle-held bench --real --kernel-stats --warmup 0.2 --n 16384 > $OUT/stats-held.log 2>&1
.h200/twiddle bench --real --kernel-stats --warmup 0.2 --n 16384 > $OUT/stats-base.log 2>&1
grep -h "pass 0" $OUT/stats-*.log
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
