#!/usr/bin/env bash
# Thirty-ninth run, sixth call: a one-pass join of one invocation per column takes each mirror
# from that invocation's registers, each point read once (binary `twiddle`), against reading it
# from memory again (`twiddle-rule`, the fifth call's new binary), alternated twice at c2r 4 to 64
# and 6, 10, 20, 30, 48 and 60, f32 and f64; then c2r and r2c 8 to 64 beside cuFFT and VkFFT
# (`--compare`). About 3 minutes.
set -u
source bench/h200-env.sh
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
L=4,8,16,32,64,6,10,20,30,48,60
for r in 1 2; do
  run old-$r 60 twiddle-rule bench --real --inverse --n $L --warmup 0.3 --out $OUT/old-$r.csv
  run new-$r 60 twiddle bench --real --inverse --n $L --warmup 0.3 --out $OUT/new-$r.csv
  run old-f64-$r 40 twiddle-rule bench --real --inverse --f64 --n 16,32,64,30 --warmup 0.3 --out $OUT/old-f64-$r.csv
  run new-f64-$r 40 twiddle bench --real --inverse --f64 --n 16,32,64,30 --warmup 0.3 --out $OUT/new-f64-$r.csv
done
run compare-c2r 90 twiddle bench --compare --inverse --real --n 8,16,32,64,30,60 --warmup 0.5 --reps 10 --out $OUT/compare-c2r.csv
run compare-r2c 90 twiddle bench --compare --real --n 8,16,32,64,30,60 --warmup 0.5 --reps 10 --out $OUT/compare-r2c.csv
save
for f in $OUT/old-*.csv $OUT/new-*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
for f in compare-c2r compare-r2c; do grep -A7 "ratio best other" $OUT/$f.log; done
