#!/usr/bin/env bash
# Forty-third run, second call (H100): the forty-first run's rule for real transforms' other dims
# (one tile per workgroup) in f64 at more shapes, after call 1 found 1024x1024 slower with it
# (r2c -8.8%, c2r -2.6%): 178e665 (twiddle-h) against 4b49683 (twiddle-tc), whose other-dim
# kernels loop by the general rule; these shapes' halved dims are above 64, where the two
# binaries' row kernels agree. Forward and inverse, alternated twice.
set -u
source bench/h200-env.sh  # also pack_out, save and run
pack_out
SH=256x256,512x512,1024x1024,2048x2048,4096x4096,256x256x256,64x1024,1024x256,128x2048
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 200 > $OUT/clocks.csv 2>&1 &
SAMPLER=$!
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
for r in 1 2; do
  for b in tc h; do
    run f-$b-$r 80 twiddle-$b bench --f64 --real --shapes $SH --warmup 0.3 --out $OUT/f-$b-$r.csv
    run fi-$b-$r 80 twiddle-$b bench --f64 --real --inverse --shapes $SH --warmup 0.3 --out $OUT/fi-$b-$r.csv
  done
done
kill $SAMPLER
save
sed 's/\.[0-9]* / /' $OUT/times.txt | tail -2
cat $OUT/gpu.txt
for f in $OUT/f-*.csv $OUT/fi-*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f6 | tr '\n' ' ')"; done
save
