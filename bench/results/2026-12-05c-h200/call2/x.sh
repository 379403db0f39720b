#!/usr/bin/env bash
# Thirty-sixth run, second call (prepared, not run: no device time left). The whole sweep (c2c,
# 2D, r2c) of twiddle at 5d1a30e (`twiddle-new`) and cuFFT, one after the other as
# bench/h200-sweep.sh; then `twiddle tune` at lengths still below cuFFT or below 95% of copy, and
# those lengths again with the tuned choices (this call's disk cache). BIN names another build
# of twiddle in .h200 to sweep instead.
set -u
BIN=${BIN:-twiddle-new}
source bench/h200-env.sh  # also pack_out, save and run
pack_out
ALL=8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216,100,1000,1536,4095,10007,1000000
S=256x256,512x512,1024x1024,2048x2048,4096x4096
R=256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576
TC=8192,16384,32768,2097152,1000,1536
TR=2048,4096,8192
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 200 > $OUT/clocks.csv 2>&1 &
SAMPLER=$!
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
run cufft 150 cufft_bench --cases $ALL --out $OUT/cufft.csv
run sweep 100 $BIN bench --n $ALL --out $OUT/sweep.csv
run cufft-2d 35 cufft_bench --shapes $S --out $OUT/cufft-2d.csv
run sweep-2d 35 $BIN bench --shapes $S --out $OUT/sweep-2d.csv
run cufft-r2c 70 cufft_bench --cases $R --r2c --out $OUT/cufft-r2c.csv
run sweep-r2c 50 $BIN bench --n $R --real --out $OUT/sweep-r2c.csv
run tune 120 $BIN tune --n $TC
run tune-r2c 45 $BIN tune --real --n $TR
run tuned 35 $BIN bench --n $TC --out $OUT/tuned.csv
run tuned-r2c 20 $BIN bench --real --n $TR --out $OUT/tuned-r2c.csv
kill $SAMPLER
save
sed 's/\.[0-9]* / /' $OUT/times.txt
python3 bench/compare.py $OUT/sweep.csv $OUT/cufft.csv > $OUT/compare.md 2>&1; grep "^| [0-9]" $OUT/compare.md | cut -d'|' -f2,4,5,6,8
python3 bench/compare.py $OUT/sweep-2d.csv $OUT/cufft-2d.csv > $OUT/compare-2d.md 2>&1; grep "^| [0-9]" $OUT/compare-2d.md | cut -d'|' -f2,4,5,6,8
python3 bench/compare.py $OUT/sweep-r2c.csv $OUT/cufft-r2c.csv > $OUT/compare-r2c.md 2>&1; grep "^| [0-9]" $OUT/compare-r2c.md | cut -d'|' -f2,4,5,6,8
grep -hv '^tuning\|^device' $OUT/tune.log $OUT/tune-r2c.log | cut -c1-120
for f in $OUT/tuned*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
save
