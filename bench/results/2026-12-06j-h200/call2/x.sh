#!/usr/bin/env bash
# Forty-fifth run, second call: call 1's H200 sweep had 2D 4096 x 4096 at 0.81x cuFFT (1150 GB/s)
# and c2c 2^21 at 0.74x; the forty-fourth run's H100 had rfftn 4096^2 at a third of c2c's speed.
# Each in several processes with the time of each pass, beside 2048 x 2048 and 8192 x 512, fewer
# columns per workgroup, and cuFFT.
set -u
source bench/h200-env.sh  # also pack_out, save and run
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 200 > $OUT/clocks.csv 2>&1 &
SAMPLER=$!
SH=4096x4096,2048x2048,8192x512
B="bench --shapes $SH --pass-times --warmup 0.2"
for k in 1 2 3; do
  run c32-$k 40 twiddle $B --out $OUT/c32-$k.csv
  run r32-$k 40 twiddle $B --real --out $OUT/r32-$k.csv
done
for k in 1 2; do
  run r64-$k 40 twiddle $B --f64 --real --out $OUT/r64-$k.csv
  run c64-$k 40 twiddle $B --f64 --out $OUT/c64-$k.csv
  run n21-$k 40 twiddle bench --n 2097152,1048576,4194304 --pass-times --warmup 0.2 --out $OUT/n21-$k.csv
done
for c in 16 8; do run c32-c$c 40 twiddle bench --shapes 4096x4096 --pass-times --warmup 0.2 --columns $c --out $OUT/c32-c$c.csv; done
run cufft-c2c 60 cufft_bench --shapes $SH --out $OUT/cufft-c2c.csv
run cufft-r2c 60 cufft_bench --r2c --shapes $SH --out $OUT/cufft-r2c.csv
run cufft-n21 60 cufft_bench --cases 2097152,1048576,4194304 --out $OUT/cufft-n21.csv
kill $SAMPLER
save
cat $OUT/gpu.txt
for f in $OUT/*.csv; do
  case $f in *clocks*) continue;; esac
  case $f in */cufft*) fmt='{printf "%s %.0f | ", $7, $5}';; *) fmt='{printf "%s %.0f [%s] | ", $10, $6, $11}';; esac
  echo "$(basename $f .csv): $(grep -v '^library\|^copy' $f | awk -F, "$fmt")"
done
save
