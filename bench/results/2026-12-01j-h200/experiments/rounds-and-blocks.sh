#!/bin/bash
# Experiment: one component per exchange round (rounds 2) in multi-pass kernels; 32 columns per
# workgroup where they fit; one-pass 2048/4096 grid and shared variants.
source bench/h200-env.sh
T=.h200/twiddle-exp
O=$OUT
B="bench --warmup 0.5 --reps 30"
L="--n 32768 65536 262144 1048576 2097152 4194304 8388608 16777216 10007 1000000 --shapes 1024x1024 2048x2048 4096x4096"
for round in 1 2; do
  echo "--- round $round default" | tee -a $O/log.txt
  $T $B $L --out $O/default-$round.csv 2>&1 | tail -13 | tee -a $O/log.txt
  echo "--- round $round rounds2" | tee -a $O/log.txt
  TWIDDLE_EXP_ROUNDS2=1 $T $B $L --out $O/rounds2-$round.csv 2>&1 | tail -13 | tee -a $O/log.txt
  echo "--- round $round b32" | tee -a $O/log.txt
  TWIDDLE_EXP_B32=1 $T $B $L --out $O/b32-$round.csv 2>&1 | tail -13 | tee -a $O/log.txt
done
for round in 1 2; do
  for v in "" "--tiles 2" "--tiles 8" "--tiles 16" "--shared 49152" "--workgroup 128"; do
    echo "--- round $round one-pass $v" | tee -a $O/log.txt
    $T $B --n 2048 4096 $v 2>&1 | tail -2 | tee -a $O/log.txt
  done
done
