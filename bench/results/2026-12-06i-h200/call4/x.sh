#!/usr/bin/env bash
# Forty-fourth run, fourth call (H100): call 3 found f64 rfftn of 2048 x 2048 20% faster with two
# columns per workgroup in its column passes (--columns 2). The same knob against the default at
# more f64 shapes, real both ways and complex, and f32 real, alternated twice.
set -u
source bench/h200-env.sh  # also pack_out, save and run
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
SH=1024x1024,2048x2048,4096x4096,2048x1024,1024x2048,4096x1024,2048x256,8192x512
for r in 1 2; do
  for c in 0 2; do
    run r-$c-$r 40 twiddle-n bench --f64 --real --shapes $SH --columns $c --warmup 0.2 --out $OUT/r-$c-$r.csv
    run i-$c-$r 40 twiddle-n bench --f64 --real --inverse --shapes $SH --columns $c --warmup 0.2 --out $OUT/i-$c-$r.csv
    run c-$c-$r 40 twiddle-n bench --f64 --shapes $SH --columns $c --warmup 0.2 --out $OUT/c-$c-$r.csv
  done
done
for c in 0 2; do run s-$c 40 twiddle-n bench --real --shapes $SH --columns $c --warmup 0.2 --out $OUT/s-$c.csv; done
save
for f in $OUT/[rics]-*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f6 | tr '\n' ' ')"; done
save
