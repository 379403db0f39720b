#!/usr/bin/env bash
# Forty-seventh run, first call: issue 6's whole sweep (sweep_issue6) of twiddle (3665b0f) beside
# cuFFT in the same call, both timed in two rounds of 0.5 s warm-ups, each round's median now
# written (round_ms); then, on an H200 only, `twiddle tune` at five c2c and two r2c lengths
# below 1.0x cuFFT in the forty-fifth run, and those lengths again with the tuner's choices,
# which plans with default options take from the disk cache. nvidia-smi samples the GPU beside
# them (sample_gpu).
set -u
source bench/h200-env.sh  # pack_out, save, run, sample_gpu, stop_sampling, sweep_issue6, print_issue6
pack_out
sample_gpu
sweep_issue6
# The tuner's H100 choices are in the thirty-sixth and thirty-seventh runs: on another card, the
# sweep alone.
if ! grep -q H200 $OUT/gpu.txt; then
  stop_sampling
  save
  cat $OUT/gpu.txt
  print_issue6
  exit 0
fi
C=2048,4096,8192,32768,1048576
R=2048,4096
run tune 110 twiddle tune --n $C
run tune-r2c 45 twiddle tune --real --n $R
run tuned 40 twiddle bench --warmup 0.5 --n $C --out $OUT/tuned.csv
run tuned-r2c 25 twiddle bench --warmup 0.5 --real --n $R --out $OUT/tuned-r2c.csv
.h200/twiddle tune --list > $OUT/tune-list.log 2>&1
for t in "" -r2c; do
  python3 bench/compare.py $OUT/tuned$t.csv $OUT/cufft$t.csv > $OUT/compare-tuned$t.md 2>&1
done
stop_sampling
save
cat $OUT/gpu.txt
print_issue6
for t in "" -r2c; do
  grep "^| [0-9]" $OUT/compare-tuned$t.md | cut -d'|' -f2,5,6,7,8 | tr -d ' ' | paste -sd' '
done
grep -v "^#" $OUT/tune-list.log | cut -c1-150
save
