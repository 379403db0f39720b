#!/usr/bin/env bash
# Thirty-third run, fourth call: `twiddle bench --compare` at HEAD (e79d711), the c2c 1D cases
# (twiddle, VkFFT on the same Vulkan device, cuFFT, FFTW threads, each gated on its accuracy),
# with its chart; --warmup 0.5 --reps 10 as in the 2026-12-01g run.
set -u
source bench/h200-env.sh
N=8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216,100,1000,1536,4095,10007,1000000
echo "$(date +%H:%M:%S) start" > $OUT/times.txt
timeout 480 .h200/twiddle bench --compare --n $N --warmup 0.5 --reps 10 --out $OUT/compare-c2c.csv > $OUT/compare-c2c.log 2>&1
echo "$(date +%H:%M:%S) end rc=$?" >> $OUT/times.txt
(cd $OUT && tar czf all.tgz *.csv *.log *.svg *.png times.txt 2>/dev/null)
cat $OUT/times.txt; tail -45 $OUT/compare-c2c.log | cut -c1-150
