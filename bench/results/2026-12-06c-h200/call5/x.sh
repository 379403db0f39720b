#!/usr/bin/env bash
# Thirty-eighth run, fifth call: join fused into the first of several passes (92b35f3) against
# f3832d0 (join a pass of its own), alternated twice at c2r 65536 to 2^20 (and 32768, a
# one-pass control), then the same lengths beside cuFFT and VkFFT (`--compare --inverse --real`).
# About 2 minutes (the device time left allowed no f64).
set -u
source bench/h200-env.sh
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
L=65536,131072,262144,524288,1048576,32768
for r in 1 2; do
  run old-$r 30 twiddle-f3832d0 bench --real --inverse --n $L --warmup 0.5 --out $OUT/old-$r.csv
  run new-$r 30 twiddle bench --real --inverse --n $L --warmup 0.5 --out $OUT/new-$r.csv
done
run compare 120 twiddle bench --compare --inverse --real --n 65536,131072,262144,524288,1048576 --warmup 0.5 --reps 10 --out $OUT/compare.csv
save
for f in $OUT/old-*.csv $OUT/new-*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,4,6 | tr '\n' ' ')"; done
grep -A8 "ratio best other" $OUT/compare.log
