#!/bin/bash
# Plan time after the kept shaderc compiler and the per-pass compile threads, with shaderc's
# performance level (default) and level zero (TW_SPIRV_LEVEL=zero, an experiment switch), and the
# c2c power-of-two sweep with each (kernel speed), interleaved.
source bench/h200-env.sh
B=.h200/twiddle-mpi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
$B bench --plan-time --plan-reps 5 --out $OUT/plan-O.csv > $OUT/plan-O.txt 2>&1
TW_SPIRV_LEVEL=zero $B bench --plan-time --plan-reps 5 --out $OUT/plan-zero.csv > $OUT/plan-zero.txt 2>&1
for r in 1 2; do
  rm -rf /tmp/twiddle-cache; $B bench --min 3 --max 24 --warmup 0.3 --reps 10 --out $OUT/sweep-O-$r.csv > $OUT/sweep-O-$r.txt 2>&1
  rm -rf /tmp/twiddle-cache; TW_SPIRV_LEVEL=zero $B bench --min 3 --max 24 --warmup 0.3 --reps 10 --out $OUT/sweep-zero-$r.csv > $OUT/sweep-zero-$r.txt 2>&1
done
tar czf $OUT/all.tgz -C $OUT .
tail -8 $OUT/plan-O.txt; tail -7 $OUT/plan-zero.txt
paste <(awk '{print $1, $5}' $OUT/sweep-O-1.txt) <(awk '{print $5}' $OUT/sweep-zero-1.txt) <(awk '{print $5}' $OUT/sweep-O-2.txt) <(awk '{print $5}' $OUT/sweep-zero-2.txt) | tail -24
