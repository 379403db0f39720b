#!/usr/bin/env bash
# The SHT analysis's row pass: its factors W_M^{k1 n2} from the 4096-entry operand (base), from
# two tables of 64 entries (TW_ROWOP=small), or left out (TW_ROWOP=none: wrong results, the
# cost of the factors); the planner's radix; and the m-major passes reversed (TW_REV_*).
# Interleaved, with the cuFFT stage in the same call.
set -u
source bench/h200-env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
sht() { name=$1; shift; env "$@" TWIDDLE_CACHE_DIR=/tmp/tc-$name .h200/twiddle bench --sht 4096x8192x4095 --sht-passes two --pass-times --warmup 0.5 --max-error 10 $EXTRA --out $OUT/$name.csv > $OUT/$name.log 2>&1
  awk -F, -v t=$name '$1=="twiddle"{printf "%-12s %s %s %s %s\n", t, $2, $8, $11, $13}' $OUT/$name.csv; }
for r in 1 2; do
  EXTRA= sht base-$r X=1
  EXTRA= sht small-$r TW_ROWOP=small
  EXTRA= sht none-$r TW_ROWOP=none
  EXTRA= sht revsmall-$r TW_ROWOP=small TW_REV_ANA=1 TW_REV_SYN=1
  EXTRA="--max-radix 8" sht r8-$r X=1
  EXTRA="--max-radix 32" sht r32-$r X=1
  .h200/cufft_bench --sht --sht-cases 4096x8192x4095 --warmup 0.5 --out $OUT/cufft-$r.csv > $OUT/cufft-$r.log 2>&1
  awk -F, -v t=cufft-$r '$1=="cufft"{print t, $2, $7, $9}' $OUT/cufft-$r.csv
done
.h200/twiddle bench --sht 4096x8192x4095 --sht-passes two --kernel-stats --warmup 0.5 > $OUT/stats.log 2>&1
TW_ROWOP=small TWIDDLE_CACHE_DIR=/tmp/tc-st2 .h200/twiddle bench --sht 4096x8192x4095 --sht-passes two --kernel-stats --warmup 0.5 > $OUT/stats-small.log 2>&1
grep -i "regist\|pass\|four" $OUT/stats.log | head -20
cat $OUT/gpu.txt
cd $OUT && tar czf all.tgz *.csv *.log gpu.txt && rm -f *.csv *.log
