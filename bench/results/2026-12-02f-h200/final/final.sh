#!/usr/bin/env bash
# The committed binary: r2c 2^8 to 2^20 and the SHT stage, cuFFT R2C and the cuFFT stage in the
# same call, interleaved.
set -u
source bench/h200-env.sh
NR="256 512 1024 2048 4096 8192 16384 32768 65536 131072 262144 524288 1048576"
S=1024x2048x1023,4096x8192x4095
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
for r in 1 2; do
  .h200/cufft_bench --r2c --cases ${NR// /,} --warmup 0.5 --out $OUT/cufft-r2c-$r.csv > $OUT/cufft-r2c-$r.log 2>&1
  .h200/twiddle bench --real --n $NR --warmup 0.5 --out $OUT/r2c-$r.csv > $OUT/r2c-$r.log 2>&1
done
for r in 1 2 3; do
  .h200/cufft_bench --sht --sht-cases $S --warmup 0.5 --out $OUT/cufft-sht-$r.csv > $OUT/cufft-sht-$r.log 2>&1
  .h200/twiddle bench --sht $S --pass-times --warmup 0.5 --out $OUT/sht-$r.csv > $OUT/sht-$r.log 2>&1
done
for r in 1 2; do awk -F, -v t=r2c-$r '$1=="twiddle"{printf "%-8s %s %s %s\n", t, $2, $6, $8}' $OUT/r2c-$r.csv; awk -F, -v t=cufft-$r '$1=="cufft"{printf "%-8s %s %s %s\n", t, $2, $5, $6}' $OUT/cufft-r2c-$r.csv; done
for r in 1 2 3; do awk -F, -v t=sht-$r '$1=="twiddle"{printf "%-8s %s %s %s %s %s\n", t, $2, $3, $8, $11, $13}' $OUT/sht-$r.csv; awk -F, -v t=csht-$r '$1=="cufft"{printf "%-8s %s %s %s %s\n", t, $2, $3, $7, $9}' $OUT/cufft-sht-$r.csv; done
cat $OUT/gpu.txt
cd $OUT && tar czf all.tgz *.csv *.log gpu.txt && rm -f *.csv *.log
