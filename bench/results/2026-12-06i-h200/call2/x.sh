#!/usr/bin/env bash
# Forty-fourth run, second call (H100): twiddle-n (the current planner, whose f64 rule call 1
# measured against both older ones) beside cuFFT D2Z / Z2D and VkFFT (--compare), f64 real
# transforms at the shapes of call 1 and the forty-third run's first call.
set -u
source bench/h200-env.sh  # also pack_out, save and run
pack_out
SH=64x64,256x256,512x512,1024x1024,2048x2048,1024x256,64x64x64,128x128x128
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 200 > $OUT/clocks.csv 2>&1 &
SAMPLER=$!
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
run cmp 200 twiddle-n bench --compare --f64 --real --shapes $SH --out $OUT/cmp.csv --plot $OUT/cmp
run cmpi 200 twiddle-n bench --compare --f64 --real --inverse --shapes $SH --out $OUT/cmpi.csv --plot $OUT/cmpi
kill $SAMPLER
save
sed 's/\.[0-9]* / /' $OUT/times.txt | tail -3
cat $OUT/gpu.txt
for f in cmp cmpi; do echo "== $f"; grep -v "^ *$" $OUT/$f.log | tail -12; done
save
