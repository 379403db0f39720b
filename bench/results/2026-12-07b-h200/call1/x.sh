#!/usr/bin/env bash
# Forty-seventh run, first call: issue 6's whole sweep (sweep_issue6) of twiddle (3665b0f) beside
# cuFFT in the same call, both timed in two rounds of 0.5 s warm-ups, each round's median now
# written (round_ms); then the forty-fifth run's slow-spell cases in fresh processes, with the
# time of each pass. nvidia-smi samples the GPU beside them (sample_gpu).
set -u
source bench/h200-env.sh  # pack_out, save, run, sample_gpu, stop_sampling, sweep_issue6, print_issue6
pack_out
sample_gpu
sweep_issue6
SH=4096x4096,2048x2048,8192x512
B="bench --shapes $SH --pass-times --warmup 0.2"
for k in 1 2 3; do run c32-$k 30 twiddle $B --out $OUT/c32-$k.csv; done
for k in 1 2; do
  run r32-$k 30 twiddle $B --real --out $OUT/r32-$k.csv
  run c64-$k 35 twiddle $B --f64 --out $OUT/c64-$k.csv
  run n21-$k 25 twiddle bench --n 2097152,1048576,4194304 --pass-times --warmup 0.2 --out $OUT/n21-$k.csv
done
run cufft-c2c 30 cufft_bench --warmup 0.2 --shapes $SH --out $OUT/cufft-c2c.csv
run cufft-r2c2 30 cufft_bench --warmup 0.2 --r2c --shapes $SH --out $OUT/cufft-r2c2.csv
run cufft-n21 30 cufft_bench --warmup 0.2 --cases 2097152,1048576,4194304 --out $OUT/cufft-n21.csv
stop_sampling
save
cat $OUT/gpu.txt
print_issue6
for f in $OUT/[crn]*-[0-9].csv $OUT/cufft-c2c.csv $OUT/cufft-r2c2.csv $OUT/cufft-n21.csv; do
  case $f in */cufft*) fmt='{printf "%s %.0f | ", $7, $5}';; *) fmt='{printf "%s %.0f [%s] | ", $10, $6, $11}';; esac
  echo "$(basename $f .csv): $(grep -v '^library\|^copy' $f | awk -F, "$fmt")"
done
save
