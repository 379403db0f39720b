#!/usr/bin/env bash
# A/B: .h200/twiddle-$1 against .h200/twiddle-$2, c2c and r2c, interleaved twice; cuFFT once.
set -u
source bench/h200-env.sh
A=$1; B=$2; shift 2
R="${R:-2048 4096 8192 16384 32768}"
C="${C:-512 1024 2048 4096 8192 16384}"
show() { awk -F, -v t=$1 '$1=="twiddle"{printf "%s %s %s %s %s\n", t, $2, $5, $6, $8}' $OUT/$1.csv; }
for r in 1 2; do
  for v in $A $B; do
    .h200/twiddle-$v bench --real --warmup 0.5 --n $R --out $OUT/r-$v-$r.csv > /dev/null 2>&1; show r-$v-$r
    .h200/twiddle-$v bench --warmup 0.5 --n $C --out $OUT/c-$v-$r.csv > /dev/null 2>&1; show c-$v-$r
  done
done
.h200/cufft_bench --r2c --warmup 0.5 --cases ${R// /,} --out $OUT/cufft-r.csv > /dev/null 2>&1
.h200/cufft_bench --warmup 0.5 --cases ${C// /,} --out $OUT/cufft-c.csv > /dev/null 2>&1
awk -F, '$1=="cufft"{print FILENAME, $2, $5, $6}' $OUT/cufft-r.csv $OUT/cufft-c.csv | sed "s|$OUT/||"
.h200/twiddle-$B bench --real --kernel-stats --warmup 0.2 --n $R > $OUT/stats-r-$B.log 2>&1
.h200/twiddle-$B bench --kernel-stats --warmup 0.2 --n $C > $OUT/stats-c-$B.log 2>&1
grep -h "pass 0" $OUT/stats-*-$B.log | cut -c1-60
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
