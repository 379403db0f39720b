#!/usr/bin/env bash
# The SHT analysis's m-major pass with fewer workgroups resident per multiprocessor: its shared
# array grown to TW_SHARED_ANA bytes (unused beyond the tile), reversed (TW_REV_*), and with
# constant stage-one twiddles (TW_CTW=1, 64 registers against 66). Interleaved, with the cuFFT
# stage in the same call.
set -u
source bench/h200-env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
sht() { name=$1; shift; env "$@" TWIDDLE_CACHE_DIR=/tmp/tc-$name .h200/twiddle bench --sht 4096x8192x4095 --sht-passes two --pass-times --warmup 0.5 --out $OUT/$name.csv > $OUT/$name.log 2>&1
  awk -F, -v t=$name '$1=="twiddle" && $2=="analysis"{printf "%-12s %s %s %s %s\n", t, $2, $8, $11, $13}' $OUT/$name.csv; }
R="TW_REV_ANA=1 TW_REV_SYN=1"
for r in 1 2; do
  sht base-$r X=1
  sht rev-$r $R
  sht s12-$r $R TW_SHARED_ANA=18000
  sht s10-$r $R TW_SHARED_ANA=22000
  sht s8-$r $R TW_SHARED_ANA=28000
  sht s6-$r $R TW_SHARED_ANA=37000
  sht ctw14-$r $R TW_CTW=1 TW_SHARED_ANA=15000
  .h200/cufft_bench --sht --sht-cases 4096x8192x4095 --warmup 0.5 --out $OUT/cufft-$r.csv > $OUT/cufft-$r.log 2>&1
  awk -F, -v t=cufft-$r '$1=="cufft"{print t, $2, $7, $9}' $OUT/cufft-$r.csv
done
cat $OUT/gpu.txt
cd $OUT && tar czf all.tgz *.csv *.log gpu.txt && rm -f *.csv *.log
