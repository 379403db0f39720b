#!/usr/bin/env bash
# Thirty-eighth run, fourth call: 0ab92fc (a fused join loops only over tiles up to 32 KiB) against
# f3832d0, alternated twice at c2r 16384 (its kernel changes) and f64 c2r 8192 (likewise), with
# c2r 8192 and 32768 as controls; then c2r 256 to 32768 beside cuFFT and VkFFT (`--compare
# --inverse --real`) on HEAD (the tuner's c2r choices apart from r2c), and the tuner at c2r 2048,
# 4096, 8192 and 32768, then those lengths again with the tuned choices. About 4 minutes.
set -u
source bench/h200-env.sh
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
for r in 1 2; do
  run old-$r 20 twiddle-f3832d0 bench --real --inverse --n 16384,8192,32768 --kernel-stats --out $OUT/old-$r.csv
  run new-$r 20 twiddle bench --real --inverse --n 16384,8192,32768 --kernel-stats --out $OUT/new-$r.csv
  run old-f64-$r 20 twiddle-f3832d0 bench --real --inverse --f64 --n 8192 --kernel-stats --out $OUT/old-f64-$r.csv
  run new-f64-$r 20 twiddle bench --real --inverse --f64 --n 8192 --kernel-stats --out $OUT/new-f64-$r.csv
done
run compare 150 twiddle bench --compare --inverse --real --n 256,512,1024,2048,4096,8192,16384,32768 --warmup 0.5 --reps 10 --out $OUT/compare.csv
run tune-c2r 120 twiddle tune --real --inverse --n 2048,4096,8192,32768
run tuned-c2r 30 twiddle bench --real --inverse --n 2048,4096,8192,32768 --out $OUT/tuned-c2r.csv
save
for f in $OUT/old-*.csv $OUT/new-*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
grep -h "Register" $OUT/old-1.log $OUT/new-1.log $OUT/old-f64-1.log $OUT/new-f64-1.log | sed 's/\[Binary.*Local Memory Size: 6871947/[local +/; s/\] \[Shared.*//'
grep -A12 "ratio best other" $OUT/compare.log
grep -A6 "speedup" $OUT/tune-c2r.log
echo "tuned $(grep '^twiddle' $OUT/tuned-c2r.csv | cut -d, -f2,6 | tr '\n' ' ')"
