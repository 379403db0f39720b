#!/usr/bin/env bash
# Experiment (TW_FS_POINTS, TW_FS_RUN: the four-step form's column points P and the m-major pass's
# run bytes, so latitudes L = run / 8 in f32) at 4096 x 8192 x 4095 and 2048 x 4096 x 2047, two
# passes, interleaved with the cuFFT stage, three rounds. Variants: P16/L16 (committed), P16/L32,
# P32/L32, P32/L16.
set -u
source bench/h200-env.sh
S=4096x8192x4095,2048x4096x2047
B=.h200/twiddle-exp
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
vars="p16l16 p16l32 p32l32 p32l16"
envof() { case $1 in p16l16) echo "TW_FS_POINTS=16 TW_FS_RUN=128";; p16l32) echo "TW_FS_POINTS=16 TW_FS_RUN=256";; p32l32) echo "TW_FS_POINTS=32 TW_FS_RUN=256";; p32l16) echo "TW_FS_POINTS=32 TW_FS_RUN=128";; esac; }
for v in $vars; do
  env $(envof $v) TWIDDLE_CACHE_DIR=/tmp/tc-$v $B bench --sht $S --sht-passes two --kernel-stats --warmup 0.1 > $OUT/stats-$v.log 2>&1
done
for r in 1 2 3; do
  .h200/cufft_bench --sht --sht-cases $S --warmup 0.5 --out $OUT/cufft-sht-$r.csv > $OUT/cufft-sht-$r.log 2>&1
  for v in $vars; do
    env $(envof $v) TWIDDLE_CACHE_DIR=/tmp/tc-$v $B bench --sht $S --sht-passes two --pass-times --warmup 0.5 --out $OUT/$v-$r.csv > $OUT/$v-$r.log 2>&1
  done
done
for v in $vars; do echo "$v: $(grep -h 'm-major' $OUT/stats-$v.log | grep -o 'Register Count: [0-9]*\|Shared Memory Size: [0-9]*' | tr '\n' ' ')"; done
for r in 1 2 3; do
  awk -F, -v t=cufft-$r '$1=="cufft"{printf "%-10s %s %s %s\n", t, $2, $3, $7}' $OUT/cufft-sht-$r.csv
  for v in $vars; do grep -h "4096x8192\|2048x4096" $OUT/$v-$r.log | awk -v t=$v-$r '{printf "%-10s %s %s %s %s %s\n", t, $1, $3, $5, $9, $NF}'; done
done
cat $OUT/gpu.txt
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
