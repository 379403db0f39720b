#!/usr/bin/env bash
# Forty-first run, third call: the planner's knobs on 2D c2c 2048^2 and 4096^2 (which twiddle tune,
# 1D only, cannot choose), each variant its own process, the defaults twice; c2r rows of 64 at
# radix 8 in f64 and in 2D (irfftn 64 x 64, 256 x 64), against the defaults. twiddle-tc is 4b49683
# (HEAD). About 3 minutes.
set -u
source bench/h200-env.sh  # also pack_out, save and run
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
B=twiddle-tc
v() {  # v NAME ARGS...: one variant
  local name=$1; shift
  run $name 40 $B bench --warmup 0.3 --out $OUT/$name.csv "$@"
}
S=2048x2048,4096x4096
v d-def-1 --shapes $S
for k in "--shared 49152" "--tiles 1" "--tiles 2" "--tiles 4" "--columns 16" "--columns 8" "--columns 64" "--max-radix 8" "--max-radix 32" "--shared 49152 --tiles 1"; do
  tag=$(echo $k | tr -d ' -'); v d-$tag --shapes $S $k
done
v d-def-2 --shapes $S
for r in 1 2; do
  v i-def-$r --real --inverse --n 64 --shapes 64x64,256x64
  v i-r8-$r --real --inverse --n 64 --shapes 64x64,256x64 --max-radix 8
  v i64-def-$r --real --inverse --f64 --n 64,128
  v i64-r8-$r --real --inverse --f64 --n 64,128 --max-radix 8
done
run cmp2d 60 $B bench --compare --shapes $S --warmup 0.3 --out $OUT/cmp2d.csv
save
sed 's/\.[0-9]* / /' $OUT/times.txt | tail -2
for f in $OUT/*.csv; do case $f in *cmp*) continue;; esac; echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,10,6 | tr '\n' ' ')"; done
for f in $OUT/cmp*.csv; do echo "$(basename $f .csv)"; cut -d, -f1,4,9,11,13,14 $f | grep -v "^copy\|^library"; done
