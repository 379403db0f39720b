#!/usr/bin/env bash
# The committed binary (bank maps per exchange): the c2c power-of-two sweep and cuFFT in the same
# call; then the SHT stage's kernel statistics.
set -u
source bench/h200-env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
.h200/twiddle bench --warmup 0.5 --out $OUT/twiddle.csv > $OUT/twiddle.log 2>&1
.h200/cufft_bench --warmup 0.5 --out $OUT/cufft.csv > $OUT/cufft.log 2>&1
.h200/twiddle bench --sht 4096x8192x4095 --kernel-stats --pass-times --warmup 0.5 --out $OUT/sht-stats.csv > $OUT/sht-stats.log 2>&1
python3 bench/compare.py $OUT/twiddle.csv $OUT/cufft.csv > $OUT/compare.md 2>&1
grep -i 'm-major\|pass' $OUT/sht-stats.log | cut -c1-300 | head -12
cat $OUT/compare.md | head -40
cd $OUT && tar czf all.tgz *.csv *.log *.md gpu.txt && rm -f *.csv *.log
