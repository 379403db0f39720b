#!/usr/bin/env bash
# Experiment (TW_SHT_ROLL: the four-step m-major pass's loops rolled, [[dont_unroll]]: "pairs" the
# mirror-pair rounds, "rounds" the run rounds; fewer registers, more resident workgroups) at
# 4096 x 8192 x 4095, interleaved with the cuFFT stage.
set -u
source bench/h200-env.sh
S=4096x8192x4095
B=.h200/twiddle-mpi
for v in base pairs rounds both; do
  case $v in base) X="";; pairs) X="TW_SHT_ROLL=pairs";; rounds) X="TW_SHT_ROLL=rounds";; both) X="TW_SHT_ROLL=pairs,rounds";; esac
  env $X TWIDDLE_CACHE_DIR=/tmp/tc-$v $B bench --sht $S --sht-passes two --kernel-stats --warmup 0.1 > $OUT/stats-$v.log 2>&1
done
for r in 1 2 3; do
  .h200/cufft_bench --sht --sht-cases $S --warmup 0.5 --out $OUT/cufft-sht-$r.csv > $OUT/cufft-sht-$r.log 2>&1
  for v in base pairs rounds both; do
    case $v in base) X="";; pairs) X="TW_SHT_ROLL=pairs";; rounds) X="TW_SHT_ROLL=rounds";; both) X="TW_SHT_ROLL=pairs,rounds";; esac
    env $X TWIDDLE_CACHE_DIR=/tmp/tc-$v $B bench --sht $S --sht-passes two --pass-times --warmup 0.5 --out $OUT/$v-$r.csv > $OUT/$v-$r.log 2>&1
  done
done
for v in base pairs rounds both; do echo "$v: $(grep -o -i 'register[^,]*' $OUT/stats-$v.log | tr '\n' ' ' | cut -c1-200)"; done
for r in 1 2 3; do
  awk -F, -v t=cufft-$r '$1=="cufft"{printf "%-8s %s %s %s %s\n", t, $2, $3, $7, $9}' $OUT/cufft-sht-$r.csv
  for v in base pairs rounds both; do awk -F, -v t=$v-$r '$1=="twiddle"{printf "%-8s %s %s %s %s %s\n", t, $2, $3, $8, $11, $13}' $OUT/$v-$r.csv; done
done
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
