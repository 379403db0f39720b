#!/usr/bin/env bash
# Forty-second run, second call: the planner's chunks of the batch (twiddle-c, uncommitted code)
# at 16 and 32 MiB, which call 1 did not reach, against the whole batch, alternated twice.
set -u
source bench/h200-env.sh  # also pack_out, save and run
pack_out
N=32768,65536,131072,262144,524288,1048576,2097152
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt 2>&1
for r in 1 2; do
  for c in 1099511627776 16777216 33554432; do
    run k$c-$r 40 twiddle-c bench --n $N --warmup 0.3 --chunk-bytes $c --out $OUT/k$c-$r.csv
  done
done
save
cat $OUT/gpu.txt
for r in 1 2; do for c in 1099511627776 16777216 33554432; do echo "k$c-$r $(grep '^twiddle' $OUT/k$c-$r.csv | cut -d, -f6 | cut -d. -f1 | tr '\n' ' ')"; done; done
