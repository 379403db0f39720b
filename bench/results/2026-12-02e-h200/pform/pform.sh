#!/usr/bin/env bash
# SHT four-step: points per column and run bytes by direction (env switches); r2c store-index experiment.
set -u
source bench/h200-env.sh
sht() { name=$1; S=$2; F=$3; shift 3; env "$@" .h200/twiddle-exp bench --sht $S --fields $F --sht-passes ${PASSES:-two} --pass-times --warmup 0.5 --out $OUT/$name.csv > $OUT/$name.log 2>&1; awk -F, -v t=$name '$1=="twiddle"{printf "%-40s %s %s %s %s %s\n", t, substr($2,1,5), $3, $8, $11, $13}' $OUT/$name.csv; }
V=("X=1" "TW_P_SYN=32 TW_P_ANA=16" "TW_P_SYN=8 TW_P_ANA=64" "TW_RUN_SYN=64 TW_RUN_ANA=128" "TW_RUN_SYN=256 TW_RUN_ANA=32" "TW_P_SYN=8 TW_RUN_SYN=256 TW_P_ANA=64 TW_RUN_ANA=128" "TW_P_SYN=8 TW_RUN_SYN=64 TW_P_ANA=64 TW_RUN_ANA=32")
for r in 1 2; do
  for i in "${!V[@]}"; do sht v$i-4k-$r 4096x8192x4095 1 ${V[$i]}; done
done
for i in "${!V[@]}"; do sht v$i-2k 2048x4096x2047 1 ${V[$i]}; sht v$i-8k 8192x16384x8191 1 ${V[$i]}; done
printf '%s\n' "${V[@]}"
sht v0-4k-f8 4096x8192x4095 8 X=1
sht v2-4k-f8 4096x8192x4095 8 ${V[2]}
PASSES=auto sht auto-1k 1024x2048x1023 1 X=1
PASSES=auto sht auto-1k-f8 1024x2048x1023 8 X=1
PASSES=auto sht auto-2k-f8 2048x4096x2047 8 X=1
fft() { name=$1; shift; env ${ENVS:-X=1} .h200/twiddle-exp bench --warmup 0.5 --max-error 1e30 --out $OUT/$name.csv "$@" > $OUT/$name.log 2>&1; awk -F, -v t=$name '$1=="twiddle"{printf "%-34s %s %s %s\n", t, $2, $6, $8}' $OUT/$name.csv; }
for r in 1 2; do
  for v in none storei deali; do ENVS=TW_EXP=$v fft r2c-$v-$r --real --n 4096 8192; done
done
.h200/cufft_bench --sht --sht-cases 4096x8192x4095,2048x4096x2047,8192x16384x8191,1024x2048x1023 --warmup 0.5 --out $OUT/cufft-sht.csv > $OUT/cufft-sht.log 2>&1
awk -F, '$1=="cufft"{print "cufft", $2, $3, $4, $7}' $OUT/cufft-sht.csv
.h200/cufft_bench --sht --sht-cases 4096x8192x4095,2048x4096x2047,1024x2048x1023 --fields 8 --warmup 0.5 --out $OUT/cufft-sht8.csv > $OUT/cufft-sht8.log 2>&1
awk -F, '$1=="cufft"{print "cufft8", $2, $3, $4, $7}' $OUT/cufft-sht8.csv
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
