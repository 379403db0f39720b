#!/usr/bin/env bash
# Fortieth run, second call: the radix-4 rule with f64 (twiddle-r4 now takes it in both
# precisions) against 35b9564's binary, alternated twice; r2c 512 and 1024 (0.93x of VkFFT in
# call 1) at radix 8 and 4 and with 128 or 256 invocations, f32 and f64; then the tuner at r2c
# 512 to 8192. About 4 minutes.
set -u
source bench/h200-env.sh
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
for r in 1 2; do
  run f64old-$r 40 twiddle bench --real --f64 --n 128,256,512 --warmup 0.3 --out $OUT/f64old-$r.csv
  run f64new-$r 40 twiddle-r4 bench --real --f64 --n 128,256,512 --warmup 0.3 --out $OUT/f64new-$r.csv
  run def-$r 40 twiddle-r4 bench --real --n 512,1024 --warmup 0.3 --out $OUT/def-$r.csv
  run r8-$r 40 twiddle-r4 bench --real --n 512,1024 --max-radix 8 --warmup 0.3 --out $OUT/r8-$r.csv
  run r4-$r 40 twiddle-r4 bench --real --n 512,1024 --max-radix 4 --warmup 0.3 --out $OUT/r4-$r.csv
  run wg128-$r 40 twiddle-r4 bench --real --n 512,1024 --workgroup 128 --warmup 0.3 --out $OUT/wg128-$r.csv
  run wg256-$r 40 twiddle-r4 bench --real --n 512,1024 --workgroup 256 --warmup 0.3 --out $OUT/wg256-$r.csv
  run f64r8-$r 40 twiddle-r4 bench --real --f64 --n 512,1024 --max-radix 8 --warmup 0.3 --out $OUT/f64r8-$r.csv
done
run tune 200 twiddle-r4 tune --real --n 512,1024,2048,4096,8192
save
for f in $OUT/*-1.csv $OUT/*-2.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
grep -A8 "speedup" $OUT/tune.log
