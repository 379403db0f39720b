#!/usr/bin/env bash
# Fortieth run, fourth call: join's mirrors through subgroup shuffles (PassKernel::join_lanes;
# twiddle-jl: 77fdbee + the working tree, now plain shuffles in a branch on the lane check) against 35b9564 (twiddle), c2r f32 512 to 32768 and
# 1536, f64 1024 to 8192, alternated twice; with --tiles 1; the kernels' registers
# (--kernel-stats). About 3 minutes.
set -u
source bench/h200-env.sh
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
L=512,1024,1536,2048,4096,8192,16384,32768
for r in 1 2; do
  run old-$r 60 twiddle bench --real --inverse --n $L --warmup 0.3 --out $OUT/old-$r.csv
  run jl-$r 60 twiddle-jl bench --real --inverse --n $L --warmup 0.3 --out $OUT/jl-$r.csv
  run f64old-$r 60 twiddle bench --real --inverse --f64 --n 1024,4096,8192 --warmup 0.3 --out $OUT/f64old-$r.csv
  run f64jl-$r 60 twiddle-jl bench --real --inverse --f64 --n 1024,4096,8192 --warmup 0.3 --out $OUT/f64jl-$r.csv
done
run jlt1 60 twiddle-jl bench --real --inverse --n $L --tiles 1 --warmup 0.3 --out $OUT/jlt1.csv
run statsold 60 twiddle bench --real --inverse --n 2048,8192,16384 --reps 5 --warmup 0.1 --kernel-stats
run statsjl 60 twiddle-jl bench --real --inverse --n 2048,8192,16384 --reps 5 --warmup 0.1 --kernel-stats
save
for f in $OUT/*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
grep -i "regist" $OUT/statsold.log $OUT/statsjl.log | head -12
