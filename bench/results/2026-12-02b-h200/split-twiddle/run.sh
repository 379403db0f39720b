#!/usr/bin/env bash
# A/B: .h200/twiddle (base) against .h200/twiddle-$1, r2c, interleaved twice; cuFFT R2C once.
set -u
source bench/h200-env.sh
V=$1; shift
N="${N:-2048 4096 8192 16384 32768}"
show() { awk -F, -v t=$1 '$1=="twiddle"{printf "%s %s %s %s %s\n", t, $2, $5, $6, $9}' $OUT/$1.csv; }
for r in 1 2; do
  .h200/twiddle bench --real --warmup 0.5 --n $N --out $OUT/base-$r.csv "$@" > /dev/null 2>&1; show base-$r
  .h200/twiddle-$V bench --real --warmup 0.5 --n $N --out $OUT/$V-$r.csv "$@" > /dev/null 2>&1; show $V-$r
done
.h200/cufft_bench --r2c --warmup 0.5 --cases ${N// /,} --out $OUT/cufft.csv > /dev/null 2>&1
awk -F, '$1=="cufft"{print "cufft", $2, $4, $5}' $OUT/cufft.csv
.h200/twiddle-$V bench --real --kernel-stats --warmup 0.2 --n $N > $OUT/stats-$V.log 2>&1
grep -h "pass 0" $OUT/stats-$V.log | cut -c1-60
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
