#!/usr/bin/env bash
# Fortieth run, fifth call: the join_lanes rule as committed (shuffles only where a one-pass join
# loops over tiles: c2r 2048 by default; twiddle-jl) against 35b9564 (twiddle), with controls that
# must not change, and --join-through-shared-memory at 2048, alternated twice; then --compare
# --inverse --real and --compare --real (cuFFT, VkFFT) with twiddle-jl, and the tuner at c2r 2048.
# About 4 minutes.
set -u
source bench/h200-env.sh
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
L=64,512,1024,2048,4096,16384
for r in 1 2; do
  run old-$r 60 twiddle bench --real --inverse --n $L --warmup 0.3 --out $OUT/old-$r.csv
  run jl-$r 60 twiddle-jl bench --real --inverse --n $L --warmup 0.3 --out $OUT/jl-$r.csv
  run jx-$r 60 twiddle-jl bench --real --inverse --n 2048 --join-through-shared-memory --warmup 0.3 --out $OUT/jx-$r.csv
done
run cmpinv 200 twiddle-jl bench --compare --inverse --real --n 64,128,256,512,1024,2048,4096,8192,16384,32768,65536 --warmup 0.3 --out $OUT/cmpinv.csv
run cmpfwd 200 twiddle-jl bench --compare --real --n 64,128,256,512,1024,2048,4096 --warmup 0.3 --out $OUT/cmpfwd.csv
run tune 120 twiddle-jl tune --real --inverse --n 2048
save
for f in $OUT/old-*.csv $OUT/jl-*.csv $OUT/jx-*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
for f in $OUT/cmpinv.csv $OUT/cmpfwd.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f5,9,13,14 | tr '\n' ' ')"; done
grep -A4 "speedup" $OUT/tune.log
