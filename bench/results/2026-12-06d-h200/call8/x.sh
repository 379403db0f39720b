#!/usr/bin/env bash
# Thirty-ninth run, eighth call: r2c of short rows (8 to 64, 30 and 60; 0.85-0.93x VkFFT in the
# sixth call, never measured on the H200), whose one-pass kernels take a row per invocation,
# load it through shared memory and spread split's pairs over the workgroup: the defaults against
# `--tiles 1`, `--workgroup 64` and `128`, all of the shared memory and radix 4 and 8, alternated
# twice, then `twiddle tune --real` at 8 to 64 (8adfb13). About 4 minutes.
set -u
source bench/h200-env.sh
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
L=8,16,32,64,30,60
for r in 1 2; do
  run default-$r 30 twiddle bench --real --n $L --warmup 0.3 --out $OUT/default-$r.csv
  run tiles1-$r 30 twiddle bench --real --n $L --warmup 0.3 --tiles 1 --out $OUT/tiles1-$r.csv
  run wg64-$r 30 twiddle bench --real --n $L --warmup 0.3 --workgroup 64 --out $OUT/wg64-$r.csv
  run wg128-$r 30 twiddle bench --real --n $L --warmup 0.3 --workgroup 128 --out $OUT/wg128-$r.csv
  run shared-$r 30 twiddle bench --real --n $L --warmup 0.3 --shared 49152 --out $OUT/shared-$r.csv
  run radix4-$r 30 twiddle bench --real --n $L --warmup 0.3 --max-radix 4 --out $OUT/radix4-$r.csv
  run radix8-$r 30 twiddle bench --real --n $L --warmup 0.3 --max-radix 8 --out $OUT/radix8-$r.csv
done
run tune 120 twiddle tune --real --n 8,16,32,64
save
for f in $OUT/*-1.csv $OUT/*-2.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
grep -A6 "speedup" $OUT/tune.log
