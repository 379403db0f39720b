#!/usr/bin/env bash
# 2^23 and 2^24 again (the level/ call's shaderc -O sweeps ran them at 420-444 GB/s in 3 of 4
# cases, level zero at 1200-1253 every time): O and zero alternated, three rounds, kernel
# statistics, clocks; then roll/x.sh (the SHT experiment).
source bench/h200-env.sh
B=.h200/twiddle-mpi
for r in 1 2 3; do
  for v in O zero; do
    X=""; [ $v = zero ] && X="TW_SPIRV_LEVEL=zero"
    rm -rf /tmp/twiddle-cache
    env $X $B bench --n 8388608 16777216 --warmup 0.5 --reps 10 --kernel-stats > $OUT/big-$v-$r.txt 2>&1
    nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader >> $OUT/big-$v-$r.txt
  done
done
for r in 1 2 3; do for v in O zero; do echo "$v-$r: $(grep -E '^ +(8388608|16777216)' $OUT/big-$v-$r.txt | awk '{print $1, $4, $5}' | tr '\n' ' ') $(tail -n 1 $OUT/big-$v-$r.txt)"; done; done
mkdir -p $OUT/roll; OUT=$OUT/roll bash bench/results/2026-12-03d-h200/roll/x.sh
cd $OUT && tar czf big.tgz big-*.txt && rm -f big-*.txt
