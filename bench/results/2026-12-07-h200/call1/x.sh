#!/usr/bin/env bash
# Forty-sixth run, first call: the whole H200 sweep of twiddle (6a016da) beside cuFFT in the same
# call, now with 83f983c's two timing rounds (0.5 s warm-ups each) for both libraries; then the
# forty-fifth run's slow-spell cases (4096^2, 2048^2, 8192 x 512 and 2^20-2^22 with the time of
# each pass) in fresh processes, to see whether two rounds remove the spells. Sampled beside them:
# clocks, power, utilisation and memory in use (another process on the GPU would show there),
# the compute processes nvidia-smi sees, and the active clock-event reasons.
set -u
source bench/h200-env.sh  # also pack_out, save and run
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu,memory.used --format=csv -lms 200 > $OUT/clocks.csv 2>&1 &
SAMPLER=$!
nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv -l 1 > $OUT/apps.csv 2>&1 &
APPS=$!
nvidia-smi --query-gpu=timestamp,clocks_event_reasons.active --format=csv -lms 200 > $OUT/reasons.csv 2>&1 &
REASONS=$!
W="--warmup 0.5"
ALL=8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216,100,1000,1536,4095,10007,1000000
S=256x256,512x512,1024x1024,2048x2048,4096x4096
R=256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576
run cufft 120 cufft_bench $W --cases $ALL --out $OUT/cufft.csv
run sweep 100 twiddle bench $W --n $ALL --out $OUT/sweep.csv
run cufft-r2c 50 cufft_bench $W --cases $R --r2c --out $OUT/cufft-r2c.csv
run sweep-r2c 50 twiddle bench $W --n $R --real --out $OUT/sweep-r2c.csv
run cufft-2d 30 cufft_bench $W --shapes $S --out $OUT/cufft-2d.csv
run sweep-2d 30 twiddle bench $W --shapes $S --out $OUT/sweep-2d.csv
for t in "" -r2c -2d; do
  python3 bench/compare.py $OUT/sweep$t.csv $OUT/cufft$t.csv > $OUT/compare$t.md 2>&1
done
save
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
kill $SAMPLER $APPS $REASONS
save
cat $OUT/gpu.txt
for t in "" -r2c -2d; do
  grep "^| [0-9]" $OUT/compare$t.md | cut -d'|' -f2,5,6,7,8 | tr -d ' ' | paste -sd' '
done
for f in $OUT/[crn]*-[0-9].csv $OUT/cufft-c2c.csv $OUT/cufft-r2c2.csv $OUT/cufft-n21.csv; do
  case $f in */cufft*) fmt='{printf "%s %.0f | ", $7, $5}';; *) fmt='{printf "%s %.0f [%s] | ", $10, $6, $11}';; esac
  echo "$(basename $f .csv): $(grep -v '^library\|^copy' $f | awk -F, "$fmt")"
done
save
