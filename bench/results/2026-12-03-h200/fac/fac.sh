#!/usr/bin/env bash
# The SHT analysis with the row pass's factors W_M^{k1 n2} moved into the m-major pass (TW_FAC=1:
# 64 factors a workgroup into shared memory, applied as the column DFT reads its points), and the
# m-major passes reversed (TW_REV_*). Interleaved, with the cuFFT stage in the same call.
set -u
source bench/h200-env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
sht() { name=$1; shift; env "$@" TWIDDLE_CACHE_DIR=/tmp/tc-$name .h200/twiddle bench --sht 4096x8192x4095 --sht-passes two --pass-times --warmup 0.5 --out $OUT/$name.csv > $OUT/$name.log 2>&1
  awk -F, -v t=$name '$1=="twiddle"{printf "%-12s %s %s %s %s\n", t, $2, $8, $11, $13}' $OUT/$name.csv; }
for r in 1 2 3; do
  sht base-$r X=1
  sht rev-$r TW_REV_ANA=1 TW_REV_SYN=1
  sht fac-$r TW_FAC=1
  sht facrev-$r TW_FAC=1 TW_REV_ANA=1 TW_REV_SYN=1
  .h200/cufft_bench --sht --sht-cases 4096x8192x4095 --warmup 0.5 --out $OUT/cufft-$r.csv > $OUT/cufft-$r.log 2>&1
  awk -F, -v t=cufft-$r '$1=="cufft"{print t, $2, $7, $9}' $OUT/cufft-$r.csv
done
TW_FAC=1 TWIDDLE_CACHE_DIR=/tmp/tc-st2 .h200/twiddle bench --sht 4096x8192x4095 --sht-passes two --kernel-stats --warmup 0.5 > $OUT/stats-fac.log 2>&1
grep -i "analysis" $OUT/stats-fac.log | head -20
cat $OUT/gpu.txt
cd $OUT && tar czf all.tgz *.csv *.log gpu.txt && rm -f *.csv *.log
