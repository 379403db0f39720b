#!/usr/bin/env bash
# The SHT four-step m-major passes with 1, 2 or 4 tiles per workgroup, looped (TW_REP_ANA,
# TW_REP_SYN; local branch exp-rep), TW_PF=1 the next tile loaded ahead into registers (analysis), interleaved, with the cuFFT stage in the same call.
set -u
source bench/h200-env.sh
sht() { name=$1; shift; env "$@" TWIDDLE_CACHE_DIR=/tmp/tc-$name .h200/twiddle bench --sht 4096x8192x4095 --pass-times --warmup 0.5 --out $OUT/$name.csv > $OUT/$name.log 2>&1
  awk -F, -v t=$name '$1=="twiddle"{printf "%-10s %s %s %s %s\n", t, $2, $8, $11, $13}' $OUT/$name.csv; }
for r in 1 2; do
  sht rep1-$r X=1; sht rep2-$r TW_REP_ANA=2; sht pf2-$r TW_REP_ANA=2 TW_PF=1; sht pf4-$r TW_REP_ANA=4 TW_PF=1
  .h200/cufft_bench --sht --sht-cases 4096x8192x4095 --warmup 0.5 --out $OUT/cufft-$r.csv > $OUT/cufft-$r.log 2>&1
  awk -F, -v t=cufft-$r '$1=="cufft"{print t, $2, $7, $9}' $OUT/cufft-$r.csv
done
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
