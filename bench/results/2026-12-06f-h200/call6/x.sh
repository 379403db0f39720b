#!/usr/bin/env bash
# Forty-first run, sixth call: the passes over the other dims of 2D and 3D real transforms (the
# spectrum's columns: rfftn after split, irfftn before join) with one or two tiles per workgroup
# (twiddle-x: 5fb3f2b with the experiment switch TW_EXP_OTHER_TILES) against the defaults
# (looping), r2c and c2r, alternated; per-pass times in the second round; cuFFT R2C of the same
# shapes. About 5 minutes.
set -u
source bench/h200-env.sh  # also pack_out, save and run
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
S=64x64,128x128,256x256,512x512,1024x1024,2048x2048,4096x4096,1024x64,64x1024,64x64x64,128x128x128,256x256x256
v() {  # v NAME ARGS...: one variant
  local name=$1; shift
  run $name 60 twiddle-x bench --warmup 0.3 --shapes $S --out $OUT/$name.csv "$@"
}
for k in r i; do
  a="--real"; [ $k = i ] && a="--real --inverse"
  v $k-def-1 $a
  (export TW_EXP_OTHER_TILES=1; v $k-t1-1 $a)
  (export TW_EXP_OTHER_TILES=2; v $k-t2-1 $a)
  v $k-def-2 $a --pass-times
  (export TW_EXP_OTHER_TILES=1; v $k-t1-2 $a --pass-times)
done
run cufft-r 60 cufft_bench --shapes $S --r2c --out $OUT/cufft-r.csv
save
sed 's/\.[0-9]* / /' $OUT/times.txt | tail -2
for f in $OUT/*.csv; do echo "$(basename $f .csv) $(grep '^twiddle\|^cufft' $f | cut -d, -f6 | tr '\n' ' ')"; done
for f in $OUT/*-2.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f11 | tr '\n' ' ')"; done
