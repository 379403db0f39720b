#!/usr/bin/env bash
# Thirty-ninth run, first call: join's mirrors through shared memory in one-pass c2r kernels
# (PassKernel::join_exchange; binary `twiddle`) against each point read with its mirror from
# memory (`twiddle-12b780e`), alternated twice at c2r 512 to 32768 and 1000, and f64 c2r 4096 and
# 8192, with the kernels' registers; c2r 16384 and 8192 with `--tiles 1` (join_exchange lets
# them loop over tiles again); then c2r 256 to 32768 beside cuFFT and VkFFT (`--compare
# --inverse --real`). About 8 minutes.
set -u
source bench/h200-env.sh
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
L=512,2048,4096,8192,16384,32768,1000
for r in 1 2; do
  run old-$r 60 twiddle-12b780e bench --real --inverse --n $L --warmup 0.5 --kernel-stats --out $OUT/old-$r.csv
  run new-$r 60 twiddle bench --real --inverse --n $L --warmup 0.5 --kernel-stats --out $OUT/new-$r.csv
  run old-f64-$r 20 twiddle-12b780e bench --real --inverse --f64 --n 4096,8192 --out $OUT/old-f64-$r.csv
  run new-f64-$r 20 twiddle bench --real --inverse --f64 --n 4096,8192 --out $OUT/new-f64-$r.csv
done
run tiles1 20 twiddle bench --real --inverse --n 16384,8192 --tiles 1 --kernel-stats --out $OUT/tiles1.csv
run compare 150 twiddle bench --compare --inverse --real --n 256,512,1024,2048,4096,8192,16384,32768 --warmup 0.5 --reps 10 --out $OUT/compare.csv
save
for f in $OUT/old-*.csv $OUT/new-*.csv $OUT/tiles1.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
grep -h "Register" $OUT/old-1.log $OUT/new-1.log $OUT/tiles1.log | sed 's/\[Binary.*Local Memory Size: 6871947/[local +/; s/\] \[Shared.*//' | cut -c1-160
grep -A12 "ratio best other" $OUT/compare.log
