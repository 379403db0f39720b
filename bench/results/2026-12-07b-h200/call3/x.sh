#!/usr/bin/env bash
# Forty-seventh run, third call, with the session's last device time: on an H200 only, the c2c
# lengths of issue 6's sweep, cuFFT then twiddle (3665b0f), two timing rounds of 0.5 s warm-ups
# each, every round's median written. On another card it stops at once.
set -u
source bench/h200-env.sh  # pack_out, save, run, sample_gpu, stop_sampling
pack_out
sample_gpu
if ! grep -q H200 $OUT/gpu.txt; then stop_sampling; save; cat $OUT/gpu.txt; exit 0; fi
W="--warmup 0.5"
ALL=8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576
ALL=$ALL,2097152,4194304,8388608,16777216,100,1000,1536,4095,10007,1000000
run cufft 100 cufft_bench $W --cases $ALL --out $OUT/cufft.csv
run sweep 90 twiddle bench $W --n $ALL --out $OUT/sweep.csv
python3 bench/compare.py $OUT/sweep.csv $OUT/cufft.csv > $OUT/compare.md 2>&1
stop_sampling
save
cat $OUT/gpu.txt
grep "^| [0-9]" $OUT/compare.md | cut -d'|' -f2,5,6,7,8 | tr -d ' ' | paste -sd' '
