#!/usr/bin/env bash
# Fiftieth run, third call: the planner of 0eaa2ef (.h200/twiddle-new: Rader's pass first at every
# length p x m, the passes after it in 64 or 32 columns per workgroup) against .h200/twiddle-r0
# (Rader's pass first from 64 points on, the passes after it in the default 16 columns) and cuFFT,
# in one call. Little device time was left: warm-ups of 0.3 s.
set -u
source bench/h200-env.sh  # pack_out, save, run, sample_gpu, stop_sampling
pack_out
sample_gpu
w="--warmup 0.3"
L=74,296,592,999,1110,2368,151552,1048575
run cufft 40 cufft_bench $w --cases $L --out "$OUT/cufft.csv"
run new 40 twiddle-new bench $w --n $L --out "$OUT/new.csv"
run r0 40 twiddle-r0 bench $w --n $L --out "$OUT/r0.csv"
for v in new r0; do python3 bench/compare.py "$OUT/$v.csv" "$OUT/cufft.csv" > "$OUT/compare-$v.md" 2>&1; done
stop_sampling
save
cat $OUT/gpu.txt
for v in new r0; do echo $v; grep "^| [0-9]" $OUT/compare-$v.md | cut -d'|' -f2,5,6,7,8 | tr -d ' ' | paste -sd' '; done
