#!/usr/bin/env bash
# Forty-fourth run, first call, for whatever card comes (asked as an H200). On an H200: the whole
# sweep of twiddle-n (f527e1f's planner, the current one) beside cuFFT in the same call: c2c,
# r2c and 2D, as bench/h200-sweep.sh, the first H200 figures of the last four sessions' rules.
# On an H100: the forty-third run's third call (the f64 rule for real transforms' other dims,
# twiddle-n against twiddle-h and twiddle-tc), which never got a machine.
set -u
if ! nvidia-smi -L | grep -q H200; then exec bash bench/results/2026-12-06h-h200/call3/x.sh; fi
source bench/h200-env.sh  # also pack_out, save and run
pack_out
ALL=8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216,100,1000,1536,4095,10007,1000000
S=256x256,512x512,1024x1024,2048x2048,4096x4096
R=256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 200 > $OUT/clocks.csv 2>&1 &
SAMPLER=$!
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
run cufft 150 cufft_bench --cases $ALL --out $OUT/cufft.csv
run sweep 100 twiddle-n bench --n $ALL --out $OUT/sweep.csv
run cufft-r2c 70 cufft_bench --cases $R --r2c --out $OUT/cufft-r2c.csv
run sweep-r2c 50 twiddle-n bench --n $R --real --out $OUT/sweep-r2c.csv
run cufft-2d 35 cufft_bench --shapes $S --out $OUT/cufft-2d.csv
run sweep-2d 35 twiddle-n bench --shapes $S --out $OUT/sweep-2d.csv
kill $SAMPLER
save
sed 's/\.[0-9]* / /' $OUT/times.txt | tail -2
cat $OUT/gpu.txt
python3 bench/compare.py $OUT/sweep.csv $OUT/cufft.csv > $OUT/compare.md 2>&1; grep "^| [0-9]" $OUT/compare.md | cut -d'|' -f2,5,6,7,8 | tr -d ' ' | paste -sd' '
python3 bench/compare.py $OUT/sweep-2d.csv $OUT/cufft-2d.csv > $OUT/compare-2d.md 2>&1; grep "^| [0-9]" $OUT/compare-2d.md | cut -d'|' -f2,5,6,7,8 | tr -d ' ' | paste -sd' '
python3 bench/compare.py $OUT/sweep-r2c.csv $OUT/cufft-r2c.csv > $OUT/compare-r2c.md 2>&1; grep "^| [0-9]" $OUT/compare-r2c.md | cut -d'|' -f2,5,6,7,8 | tr -d ' ' | paste -sd' '
save
