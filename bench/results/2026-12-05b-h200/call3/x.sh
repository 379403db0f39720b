#!/usr/bin/env bash
# Prepared for the next device: the shared-memory maps of 2026-12-05's third session, c2c.
# `twiddle-maps` (that session's HEAD: mixed-radix exchanges that skew blocks, and four more
# additive maps: a + (a >> 7) for the first exchange of every multi-pass plan's first pass,
# a + 2 (a >> 5), a + (a >> 5) + (a >> 6), a + (a >> 7) + 6 (a >> 8); one map for all exchanges of
# a kernel that waits by subgroup) against `twiddle` (ff53166), alternated twice over the lengths
# whose kernels changed and eight whose kernels did not (256, 512, 1024, 2048, 4096, 1536, 4095,
# 10^6: the control), then cuFFT on all of them.
# call4/x.sh does r2c, 2D and plan times.
set -u
source bench/h200-env.sh  # also save and run
CHANGED=64,128,32768,65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216,100,1000,10007,40,56,72,400,401,3125,6561
CONTROL=256,512,1024,2048,4096,1536,4095,1000000
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 200 > $OUT/clocks.csv 2>&1 &
SAMPLER=$!
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
for r in 1 2; do
  run old-$r 110 twiddle bench --n $CHANGED,$CONTROL --out $OUT/old-$r.csv
  run new-$r 110 twiddle-maps bench --n $CHANGED,$CONTROL --out $OUT/new-$r.csv
done
run cufft 110 cufft_bench --cases $CHANGED,$CONTROL --out $OUT/cufft.csv
kill $SAMPLER
save
cat $OUT/times.txt
for f in $OUT/old-*.csv $OUT/new-*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
echo "cufft $(grep '^cufft' $OUT/cufft.csv | cut -d, -f2,5 | tr '\n' ' ')"
