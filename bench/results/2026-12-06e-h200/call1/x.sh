#!/usr/bin/env bash
# Fortieth run, first call: r2c rows of 128 and 256 reals at radix 4 as a planner rule
# (twiddle-r4, HEAD + the rule) against 35b9564's binary (twiddle) with and without --max-radix 4;
# f64 and c2r with --max-radix 4, to see whether the rule should reach them; 2D r2c rows;
# then --compare (cuFFT R2C, VkFFT) with the rule. Alternated twice. About 3 minutes.
set -u
source bench/h200-env.sh
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
L=64,128,256,512,1024
for r in 1 2; do
  run old-$r 40 twiddle bench --real --n $L --warmup 0.3 --out $OUT/old-$r.csv
  run new-$r 40 twiddle-r4 bench --real --n $L --warmup 0.3 --out $OUT/new-$r.csv
  run oldr4-$r 40 twiddle bench --real --n 128,256 --max-radix 4 --warmup 0.3 --out $OUT/oldr4-$r.csv
  run f64-$r 40 twiddle bench --real --f64 --n 128,256,512 --warmup 0.3 --out $OUT/f64-$r.csv
  run f64r4-$r 40 twiddle bench --real --f64 --n 128,256,512 --max-radix 4 --warmup 0.3 --out $OUT/f64r4-$r.csv
  run c2r-$r 40 twiddle bench --real --inverse --n 128,256,512 --warmup 0.3 --out $OUT/c2r-$r.csv
  run c2rr4-$r 40 twiddle bench --real --inverse --n 128,256,512 --max-radix 4 --warmup 0.3 --out $OUT/c2rr4-$r.csv
  run old2d-$r 40 twiddle bench --real --shapes 128x128,256x256,1024x256 --warmup 0.3 --out $OUT/old2d-$r.csv
  run new2d-$r 40 twiddle-r4 bench --real --shapes 128x128,256x256,1024x256 --warmup 0.3 --out $OUT/new2d-$r.csv
done
run compare 120 twiddle-r4 bench --compare --real --n 128,256,512 --warmup 0.3 --out $OUT/compare.csv
save
for f in $OUT/*-1.csv $OUT/*-2.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
grep -v "^#" $OUT/compare.csv | cut -d, -f1-8 | head -20
