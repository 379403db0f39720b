#!/usr/bin/env bash
# Thirty-ninth run, seventh call: c2r 64 (one invocation of 32 points per column, which still
# loops over tiles) with `--tiles 1` against the defaults, alternated twice; then c2r 64 to 2^20,
# 100, 1000 and 1536 beside cuFFT and VkFFT (`--compare --inverse --real`) on 8adfb13, this
# session's last planner. About 5 minutes.
set -u
source bench/h200-env.sh
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
for r in 1 2; do
  run default-$r 20 twiddle bench --real --inverse --n 64,2048 --warmup 0.3 --out $OUT/default-$r.csv
  run tiles1-$r 20 twiddle bench --real --inverse --n 64,2048 --warmup 0.3 --tiles 1 --out $OUT/tiles1-$r.csv
done
run compare 300 twiddle bench --compare --inverse --real --n 64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576,100,1000,1536 --warmup 0.5 --reps 10 --out $OUT/compare.csv
save
for f in $OUT/default-*.csv $OUT/tiles1-*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
grep -A19 "ratio best other" $OUT/compare.log
