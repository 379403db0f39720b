#!/usr/bin/env bash
# Forty-third run, third call (H100): the f64 rule for real transforms' other dims (r2c passes of
# 512 points or more and c2r passes of 1024 or more keep looping) in twiddle-n (its working tree,
# on ee96def) against twiddle-h (178e665: one tile for all) and twiddle-tc (4b49683: looping for
# all), f64 forward and inverse: n, h, tc, then n and h again. (The f32 plans the rule leaves alone
# were checked on the build machine.)
set -u
source bench/h200-env.sh  # also pack_out, save and run
pack_out
SH=256x256,512x512,1024x1024,2048x2048,1024x256
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 200 > $OUT/clocks.csv 2>&1 &
SAMPLER=$!
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
for rb in n-1 h-1 tc-1 n-2 h-2; do
  b=${rb%-*}
  run f-$rb 60 twiddle-$b bench --f64 --real --shapes $SH --warmup 0.3 --out $OUT/f-$rb.csv
  run fi-$rb 60 twiddle-$b bench --f64 --real --inverse --shapes $SH --warmup 0.3 --out $OUT/fi-$rb.csv
done
kill $SAMPLER
save
sed 's/\.[0-9]* / /' $OUT/times.txt | tail -2
cat $OUT/gpu.txt
for f in $OUT/f-*.csv $OUT/fi-*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f6 | tr '\n' ' ')"; done
save
