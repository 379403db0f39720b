#!/usr/bin/env bash
# Forty-first run, fourth call: 4cb717d (twiddle-h: c2r rows of 64 reals at radix 8) against
# 4b49683 (twiddle-tc), c2r 64 in f32 and f64 and irfftn 64 x 64 and 256 x 64, alternated twice;
# r2c rows of one invocation (16, 32, 64 reals; f32 and f64; rfftn 64 x 64) looping over 4 tiles
# (default) against one tile per workgroup, alternated twice. About 2 minutes.
set -u
source bench/h200-env.sh  # also pack_out, save and run
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
v() {  # v NAME BINARY ARGS...: one variant
  local name=$1 bin=$2; shift 2
  run $name 40 $bin bench --warmup 0.3 --out $OUT/$name.csv "$@"
}
for r in 1 2; do
  v ab-old-$r twiddle-tc --real --inverse --n 64 --shapes 64x64,256x64
  v ab-new-$r twiddle-h --real --inverse --n 64 --shapes 64x64,256x64
  v ab64-old-$r twiddle-tc --real --inverse --f64 --n 64
  v ab64-new-$r twiddle-h --real --inverse --f64 --n 64
  v r-def-$r twiddle-h --real --n 16,32,64 --shapes 64x64
  v r-t1-$r twiddle-h --real --n 16,32,64 --shapes 64x64 --tiles 1
  v r64-def-$r twiddle-h --real --f64 --n 16,32,64
  v r64-t1-$r twiddle-h --real --f64 --n 16,32,64 --tiles 1
done
save
sed 's/\.[0-9]* / /' $OUT/times.txt | tail -2
for f in $OUT/*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f10,6 | tr '\n' ' ')"; done
