#!/usr/bin/env bash
# The SHT analysis in synthesis's form (TW_ANA16=1: columns of 16 points, the m-major pass in
# runs of 16 latitudes, 128 bytes; rows of 256 points), with the m-major passes reversed
# (TW_REV_*) and constant stage-one twiddles (TW_CTW=1). Interleaved, with the cuFFT stage in the
# same call.
set -u
source bench/h200-env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
sht() { name=$1; shift; env "$@" TWIDDLE_CACHE_DIR=/tmp/tc-$name .h200/twiddle bench --sht 4096x8192x4095 --sht-passes two --pass-times --warmup 0.5 --out $OUT/$name.csv > $OUT/$name.log 2>&1
  awk -F, -v t=$name '$1=="twiddle"{printf "%-12s %s %s %s %s\n", t, $2, $8, $11, $13}' $OUT/$name.csv; }
R="TW_REV_ANA=1 TW_REV_SYN=1"
for r in 1 2 3; do
  sht rev-$r $R
  sht a16rev-$r $R TW_ANA16=1
  sht a16revctw-$r $R TW_ANA16=1 TW_CTW=1
  sht revctw-$r $R TW_CTW=1
  .h200/cufft_bench --sht --sht-cases 4096x8192x4095 --warmup 0.5 --out $OUT/cufft-$r.csv > $OUT/cufft-$r.log 2>&1
  awk -F, -v t=cufft-$r '$1=="cufft"{print t, $2, $7, $9}' $OUT/cufft-$r.csv
done
TW_ANA16=1 TWIDDLE_CACHE_DIR=/tmp/tc-st2 .h200/twiddle bench --sht 4096x8192x4095 --sht-passes two --kernel-stats --warmup 0.5 > $OUT/stats-a16.log 2>&1
grep -i "analysis" $OUT/stats-a16.log | head -20
cat $OUT/gpu.txt
cd $OUT && tar czf all.tgz *.csv *.log gpu.txt && rm -f *.csv *.log
