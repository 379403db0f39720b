#!/usr/bin/env bash
# Prepared for the next device: the shared-memory maps of 2026-12-05's third session, r2c and 2D
# (see call3/x.sh), `twiddle-maps` against `twiddle` (ff53166) alternated twice, with control
# cases whose kernels did not change (r2c 256, 1024, 4096, 8192; 512^2, 1024^2), cuFFT on the
# same, then both binaries' plan times (a warm plan generates its kernels, and the map search is
# part of that); also the spherical-harmonic stage, whose row transforms take the generator's
# kernels.
set -u
source bench/h200-env.sh  # also save and run
R=256,1024,1536,16384,65536,131072,262144,524288,1048576,200,1000,4096,8192
S=512x512,1024x1024
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 200 > $OUT/clocks.csv 2>&1 &
SAMPLER=$!
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
for r in 1 2; do
  run old-r2c-$r 60 twiddle bench --real --n $R --out $OUT/old-r2c-$r.csv
  run new-r2c-$r 60 twiddle-maps bench --real --n $R --out $OUT/new-r2c-$r.csv
  run old-2d-$r 20 twiddle bench --shapes $S --out $OUT/old-2d-$r.csv
  run new-2d-$r 20 twiddle-maps bench --shapes $S --out $OUT/new-2d-$r.csv
  run old-sht-$r 30 twiddle bench --sht 1024x2048x1023,4096x8192x4095 --out $OUT/old-sht-$r.csv
  run new-sht-$r 30 twiddle-maps bench --sht 1024x2048x1023,4096x8192x4095 --out $OUT/new-sht-$r.csv
done
run cufft-r2c 50 cufft_bench --cases $R --r2c --out $OUT/cufft-r2c.csv
run cufft-2d 20 cufft_bench --shapes $S --out $OUT/cufft-2d.csv
run plan-old 60 twiddle bench --plan-time --n 1000,10007,1000000,1024,1048576
run plan-new 60 twiddle-maps bench --plan-time --n 1000,10007,1000000,1024,1048576
kill $SAMPLER
save
cat $OUT/times.txt
for f in $OUT/old-r2c-*.csv $OUT/new-r2c-*.csv $OUT/old-2d-*.csv $OUT/new-2d-*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
for f in $OUT/old-sht-*.csv $OUT/new-sht-*.csv; do echo "$(basename $f .csv)"; grep -v '^copy\|^library' $f | cut -c1-110; done
for f in $OUT/cufft-*.csv; do echo "$(basename $f .csv) $(grep '^cufft' $f | cut -d, -f2,5 | tr '\n' ' ')"; done
grep -h -i 'warm\|cold\|median' $OUT/plan-*.log | head -30
