#!/usr/bin/env bash
# Forty-seventh run, second call: the steady state under long load (the question of timing at
# the power limit). Three cases, twiddle then cuFFT, each with a 10 s warm-up a round (the sweep
# takes 0.5 s) while nvidia-smi samples clocks and power: one pass (4096), three passes (2^21) and
# 2D 4096^2.
set -u
source bench/h200-env.sh  # pack_out, save, run, sample_gpu, stop_sampling
pack_out
sample_gpu
run long 80 twiddle bench --warmup 10 --n 4096,2097152 --shapes 4096x4096 --out $OUT/long.csv
run cufft-long 80 cufft_bench --warmup 10 --cases 4096,2097152 --shapes 4096x4096 --out $OUT/cufft-long.csv
stop_sampling
python3 bench/compare.py $OUT/long.csv $OUT/cufft-long.csv > $OUT/compare-long.md 2>&1
save
cat $OUT/gpu.txt
grep "^| [0-9]" $OUT/compare-long.md | cut -d'|' -f2,5,6,7,8 | tr -d ' ' | paste -sd' '
awk -F, 'NR > 1 {print $2, $4}' $OUT/clocks.csv | sort | uniq -c | sort -rn | head -8
