#!/usr/bin/env bash
# SHT analysis: points and runs (env switches), final default; r2c dealing shifted by one (deal1).
set -u
source bench/h200-env.sh
sht() { name=$1; S=$2; F=$3; shift 3; env "$@" .h200/twiddle-exp bench --sht $S --fields $F --sht-passes ${PASSES:-two} --pass-times --warmup 0.5 --out $OUT/$name.csv > $OUT/$name.log 2>&1; awk -F, -v t=$name '$1=="twiddle"{printf "%-14s %s %s %s %s %s\n", t, substr($2,1,5), $3, $8, $11, $13}' $OUT/$name.csv; }
V=("X=1" "TW_P_ANA=16 TW_RUN_ANA=128" "TW_P_ANA=8 TW_RUN_ANA=256")
for r in 1 2 3; do
  for i in "${!V[@]}"; do sht a$i-4k-$r 4096x8192x4095 1 ${V[$i]}; done
done
for i in 1 2; do sht a$i-2k 2048x4096x2047 1 ${V[$i]}; sht a$i-8k 8192x16384x8191 1 ${V[$i]}; done
sht a0-4k-f8 4096x8192x4095 8 X=1
sht a1-4k-f8 4096x8192x4095 8 ${V[1]}
printf '%s\n' "${V[@]}"
fft() { name=$1; shift; env ${ENVS:-X=1} .h200/twiddle-exp bench --warmup 0.5 --max-error 1e30 --out $OUT/$name.csv "$@" > $OUT/$name.log 2>&1; awk -F, -v t=$name '$1=="twiddle"{printf "%-14s %s %s %s\n", t, $2, $6, $8}' $OUT/$name.csv; }
for r in 1 2; do
  for v in none deal1 deali; do ENVS=TW_EXP=$v fft r2c-$v-$r --real --n 4096 8192; done
done
.h200/cufft_bench --r2c --cases 4096,8192 --warmup 0.5 --out $OUT/cufft-r2c.csv > $OUT/cufft-r2c.log 2>&1
awk -F, '$1=="cufft"{print "cufft-r2c", $2, $5, $6}' $OUT/cufft-r2c.csv
.h200/cufft_bench --sht --sht-cases 4096x8192x4095,2048x4096x2047,8192x16384x8191 --warmup 0.5 --out $OUT/cufft-sht.csv > $OUT/cufft-sht.log 2>&1
awk -F, '$1=="cufft"{print "cufft", $2, $3, $4, $7}' $OUT/cufft-sht.csv
.h200/cufft_bench --sht --sht-cases 4096x8192x4095 --fields 8 --warmup 0.5 --out $OUT/cufft-sht8.csv > $OUT/cufft-sht8.log 2>&1
awk -F, '$1=="cufft"{print "cufft8", $2, $3, $4, $7}' $OUT/cufft-sht8.csv
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
