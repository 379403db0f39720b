#!/usr/bin/env bash
# Issue 5's convolution cases re-measured with the current binary: twiddle bench --convolve and
# cufft_bench --convolve interleaved, three rounds, both warmed up 0.5 s. The SHT analysis at
# 4096 x 8192 beside the cuFFT stage, three more rounds.
set -u
source bench/h200-env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
for r in 1 2 3; do
  .h200/twiddle bench --convolve 4096,512x512,1024x1024,2048x2048 --warmup 0.5 --out $OUT/twiddle-$r.csv > $OUT/twiddle-$r.txt 2>&1
  .h200/cufft_bench --convolve --cases 4096 --shapes 512x512,1024x1024,2048x2048 --warmup 0.5 --out $OUT/cufft-$r.csv > $OUT/cufft-$r.txt 2>&1
done
for r in 1 2 3; do
  .h200/cufft_bench --sht --sht-cases 4096x8192x4095 --warmup 0.5 --out $OUT/cufft-sht-$r.csv > $OUT/cufft-sht-$r.log 2>&1
  .h200/twiddle bench --sht 4096x8192x4095 --pass-times --warmup 0.5 --out $OUT/sht-$r.csv > $OUT/sht-$r.log 2>&1
done
for r in 1 2 3; do awk -F, -v r=$r '$1!="library"{printf "%s %-14s %-10s %s\n", r, $1, $7, $4}' $OUT/twiddle-$r.csv $OUT/cufft-$r.csv; done
for r in 1 2 3; do
  awk -F, -v t=cufft-$r '$1=="cufft"{printf "%-8s %s %s %s %s\n", t, $2, $3, $7, $9}' $OUT/cufft-sht-$r.csv
  awk -F, -v t=sht-$r '$1=="twiddle"{printf "%-8s %s %s %s %s %s\n", t, $2, $3, $8, $11, $13}' $OUT/sht-$r.csv
done
cat $OUT/gpu.txt
cd $OUT && tar czf all.tgz *.csv *.txt *.log && rm -f *.csv *.log twiddle-*.txt cufft-*.txt
