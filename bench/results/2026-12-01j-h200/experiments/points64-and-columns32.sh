#!/bin/bash
# Experiment: 64 points per invocation for one-pass 1024-4096; 2^21+ column widths.
source bench/h200-env.sh
T=.h200/twiddle-exp
O=$OUT
B="bench --warmup 0.5 --reps 30"
for round in 1 2; do
  echo "--- round $round default" | tee -a $O/log.txt
  $T $B --n 1024 2048 4096 2>&1 | tail -3 | tee -a $O/log.txt
  echo "--- round $round p64 tiles1" | tee -a $O/log.txt
  TWIDDLE_EXP_POINTS=64 TWIDDLE_EXP_MIN=1024 $T $B --n 1024 2048 4096 --tiles 1 2>&1 | tail -3 | tee -a $O/log.txt
  echo "--- round $round p64 prefetch" | tee -a $O/log.txt
  TWIDDLE_EXP_POINTS=64 $T $B --n 2048 4096 2>&1 | tail -2 | tee -a $O/log.txt
  echo "--- round $round p64 tiles1 shared48k" | tee -a $O/log.txt
  TWIDDLE_EXP_POINTS=64 $T $B --n 2048 4096 --tiles 1 --shared 49152 2>&1 | tail -2 | tee -a $O/log.txt
  echo "--- round $round p64 tiles2" | tee -a $O/log.txt
  TWIDDLE_EXP_POINTS=64 $T $B --n 2048 4096 --tiles 2 2>&1 | tail -2 | tee -a $O/log.txt
  echo "--- round $round default tiles1" | tee -a $O/log.txt
  $T $B --n 2048 4096 --tiles 1 2>&1 | tail -2 | tee -a $O/log.txt
done
echo "--- stats" | tee -a $O/log.txt
TWIDDLE_EXP_POINTS=64 $T bench --n 2048 4096 --tiles 1 --kernel-stats --reps 5 --warmup 0 2>&1 | grep "^N=" | tee -a $O/log.txt
TWIDDLE_EXP_POINTS=64 $T bench --n 2048 4096 --kernel-stats --reps 5 --warmup 0 2>&1 | grep "^N=" | tee -a $O/log.txt
echo "--- long default" | tee -a $O/log.txt
$T $B --n 2097152 4194304 8388608 16777216 2>&1 | tail -4 | tee -a $O/log.txt
echo "--- long columns32" | tee -a $O/log.txt
$T $B --n 2097152 4194304 8388608 16777216 --columns 32 2>&1 | tail -4 | tee -a $O/log.txt
echo "--- cufft" | tee -a $O/log.txt
.h200/cufft_bench --cases 1024,2048,4096,2097152,4194304,8388608,16777216 2>&1 | tail -8 | tee -a $O/log.txt
