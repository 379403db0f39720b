#!/usr/bin/env bash
# Thirty-ninth run, second call: the first call's binaries again (`twiddle` takes join's mirrors
# through shared memory in every one-pass c2r kernel whose stages exchange, `twiddle-12b780e`
# reads them from memory), alternated twice at the c2r lengths the first call did not run, to
# find where the exchange pays: 128 to 1024 (columns in one subgroup) and 1536, 100, 200, 3000,
# 4000 and 10000 (workgroups of 24 to 500 invocations), and f64 c2r 1024, 2048 and 1000. About 4 minutes.
set -u
source bench/h200-env.sh
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
L=128,256,1024,1536,100,200,3000,4000,10000
for r in 1 2; do
  run old-$r 70 twiddle-12b780e bench --real --inverse --n $L --warmup 0.5 --out $OUT/old-$r.csv
  run new-$r 70 twiddle bench --real --inverse --n $L --warmup 0.5 --out $OUT/new-$r.csv
  run old-f64-$r 30 twiddle-12b780e bench --real --inverse --f64 --n 1024,2048,1000 --out $OUT/old-f64-$r.csv
  run new-f64-$r 30 twiddle bench --real --inverse --f64 --n 1024,2048,1000 --out $OUT/new-f64-$r.csv
done
save
for f in $OUT/old-*.csv $OUT/new-*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
