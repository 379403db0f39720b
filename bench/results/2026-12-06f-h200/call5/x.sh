#!/usr/bin/env bash
# Forty-first run, fifth call: small 2D transforms, r2c (rfftn) and c2c, 64^2 to 512^2 and 1024 x
# 64, with the defaults (twiddle-h: 5fb3f2b) and with one or two tiles per workgroup, alternated
# twice; --pass-times for the defaults and --tiles 1; cuFFT R2C and C2C of the same shapes.
# About 2 minutes.
set -u
source bench/h200-env.sh  # also pack_out, save and run
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
S=64x64,128x128,256x256,512x512,1024x64
v() {  # v NAME ARGS...: one variant
  local name=$1; shift
  run $name 40 twiddle-h bench --warmup 0.3 --out $OUT/$name.csv "$@"
}
for r in 1 2; do
  v r-def-$r --real --shapes $S --pass-times
  v r-t1-$r --real --shapes $S --tiles 1 --pass-times
  v r-t2-$r --real --shapes $S --tiles 2
  v c-def-$r --shapes $S --pass-times
  v c-t1-$r --shapes $S --tiles 1 --pass-times
  v i-def-$r --real --inverse --shapes $S
  v i-t1-$r --real --inverse --shapes $S --tiles 1
done
run cufft-r 40 cufft_bench --shapes $S --r2c --out $OUT/cufft-r.csv
run cufft-c 40 cufft_bench --shapes $S --out $OUT/cufft-c.csv
save
sed 's/\.[0-9]* / /' $OUT/times.txt | tail -2
for f in $OUT/*.csv; do echo "$(basename $f .csv) $(grep -v '^library\|^copy' $f | grep '^twiddle\|^cufft' | cut -d, -f10,6 | tr '\n' ' ')"; done
echo; for f in $OUT/r-def-1.csv $OUT/r-t1-1.csv $OUT/c-def-1.csv $OUT/c-t1-1.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f10,11 | tr '\n' ' ')"; done
head -2 $OUT/cufft-r.csv
