#!/usr/bin/env bash
# Thirty-ninth run, fifth call: the planner's new rule (a one-pass join read from memory loops
# over tiles only where its invocations hold 32 points; binary `twiddle`) against 23b044f
# (`twiddle-23b044f`), alternated twice at c2r 16 to 8192, 100, 1000, 1536, 3000 and 4000 in
# f32 and 256, 1024, 4096 and 1000 in f64 (f64 and 16 and 32 were not in the fourth call); then
# c2r beside cuFFT and VkFFT (`--compare --inverse --real`) at 256 to 8192, 100, 1000 and 1536.
# About 4 minutes.
set -u
source bench/h200-env.sh
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
L=16,32,64,128,256,512,1024,2048,4096,8192,100,1000,1536,3000,4000
for r in 1 2; do
  run old-$r 60 twiddle-23b044f bench --real --inverse --n $L --warmup 0.3 --out $OUT/old-$r.csv
  run new-$r 60 twiddle bench --real --inverse --n $L --warmup 0.3 --out $OUT/new-$r.csv
  run old-f64-$r 30 twiddle-23b044f bench --real --inverse --f64 --n 256,1024,4096,1000 --warmup 0.3 --out $OUT/old-f64-$r.csv
  run new-f64-$r 30 twiddle bench --real --inverse --f64 --n 256,1024,4096,1000 --warmup 0.3 --out $OUT/new-f64-$r.csv
done
run compare 150 twiddle bench --compare --inverse --real --n 256,512,1024,2048,4096,8192,100,1000,1536 --warmup 0.5 --reps 10 --out $OUT/compare.csv
save
for f in $OUT/old-*.csv $OUT/new-*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
grep -A10 "ratio best other" $OUT/compare.log
