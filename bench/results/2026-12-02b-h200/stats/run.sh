#!/usr/bin/env bash
# Registers of c2c and r2c one-pass kernels, with their times.
set -u
source bench/h200-env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/smi.txt 2>&1
.h200/twiddle bench --kernel-stats --warmup 0.5 --n 512 1024 2048 4096 8192 16384 --out $OUT/c2c.csv > $OUT/c2c.log 2>&1
.h200/twiddle bench --real --kernel-stats --warmup 0.5 --n 1024 2048 4096 8192 16384 32768 --out $OUT/r2c.csv > $OUT/r2c.log 2>&1
.h200/cufft_bench --r2c --warmup 0.5 --cases 1024,2048,4096,8192,16384,32768 --out $OUT/cufft-r2c.csv > $OUT/cufft.log 2>&1
TWIDDLE_KERNEL_STATS=1 .h200/twiddle bench --sht 4096x8192x4095 --warmup 0.5 --out $OUT/sht.csv > $OUT/sht.log 2>&1
cd $OUT && grep -h "pass\|GB/s\|ok" c2c.log r2c.log | cut -c1-150; awk -F, '{print $1,$2,$4,$5}' cufft-r2c.csv; cat sht.log | tail -4; tar czf all.tgz *.csv *.log smi.txt && rm -f *.csv *.log
