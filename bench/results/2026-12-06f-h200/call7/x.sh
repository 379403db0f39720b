#!/usr/bin/env bash
# Forty-first run, seventh call: this session's three rules at 178e665 (twiddle-h, HEAD) against
# 4b49683 (twiddle-tc), alternated twice: c2r 64 at radix 8; r2c rows of one invocation (16, 32,
# 64) without looping; the passes over a real transform's other dims with one tile (rfftn and
# irfftn, 2D and 3D). Controls: c2c 2D and r2c 1D 256 and 1024, unchanged plans. Then rfftn and
# irfftn and 1D r2c / c2r 64 beside cuFFT (and VkFFT) with --compare. About 4 minutes.
set -u
source bench/h200-env.sh  # also pack_out, save and run
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
S=64x64,128x128,256x256,512x512,1024x1024,4096x4096,64x1024,64x64x64,128x128x128
v() {  # v NAME BINARY ARGS...: one variant
  local name=$1 bin=$2; shift 2
  run $name 60 $bin bench --warmup 0.3 --out $OUT/$name.csv "$@"
}
for r in 1 2; do
  for b in tc h; do
    v r-$b-$r twiddle-$b --real --n 16,32,64,256,1024 --shapes $S
    v i-$b-$r twiddle-$b --real --inverse --n 64,256 --shapes $S
    v c-$b-$r twiddle-$b --shapes 256x256,1024x1024
  done
done
run cmpr 90 twiddle-h bench --compare --real --n 64 --shapes $S --warmup 0.3 --out $OUT/cmpr.csv
run cmpi 90 twiddle-h bench --compare --real --inverse --n 64 --shapes $S --warmup 0.3 --out $OUT/cmpi.csv
save
sed 's/\.[0-9]* / /' $OUT/times.txt | tail -2
for f in $OUT/[ric]-*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f6 | tr '\n' ' ')"; done
for f in $OUT/cmp*.csv; do echo "$(basename $f .csv)"; cut -d, -f1,4,9,13,14 $f | grep -v "^copy\|^library\|^fftw" | paste -sd' ' | sed 's/twiddle,/\ntwiddle,/g'; done
