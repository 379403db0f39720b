#!/usr/bin/env bash
# The committed binary's SHT stage at 4096 x 8192, two passes, with the row pass's 256-point
# transforms planned with the default radix (16 x 16) or --max-radix 8 (8 x 8 x 4, 8 points an
# invocation). Interleaved, with the cuFFT stage in the same call.
set -u
source bench/h200-env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
sht() { name=$1; shift; TWIDDLE_CACHE_DIR=/tmp/tc-$name .h200/twiddle bench --sht 4096x8192x4095 --sht-passes two --pass-times --warmup 0.5 "$@" --out $OUT/$name.csv > $OUT/$name.log 2>&1
  awk -F, -v t=$name '$1=="twiddle"{printf "%-12s %s %s %s\n", t, $2, $8, $13}' $OUT/$name.csv; }
for r in 1 2 3; do
  sht base-$r
  sht r8-$r --max-radix 8
  .h200/cufft_bench --sht --sht-cases 4096x8192x4095 --warmup 0.5 --out $OUT/cufft-$r.csv > $OUT/cufft-$r.log 2>&1
  awk -F, -v t=cufft-$r '$1=="cufft"{print t, $2, $7, $9}' $OUT/cufft-$r.csv
done
TWIDDLE_CACHE_DIR=/tmp/tc-st .h200/twiddle bench --sht 4096x8192x4095 --sht-passes two --max-radix 8 --kernel-stats --warmup 0.5 > $OUT/stats-r8.log 2>&1
grep -i "rows" $OUT/stats-r8.log
cat $OUT/gpu.txt
cd $OUT && tar czf all.tgz *.csv *.log gpu.txt && rm -f *.csv *.log
