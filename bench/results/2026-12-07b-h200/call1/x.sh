#!/usr/bin/env bash
# Forty-seventh run, first call: the whole sweep of twiddle (3665b0f) beside cuFFT in the same
# call, both timed in two rounds of 0.5 s warm-ups, each round's median now written (round_ms);
# then the forty-fifth run's slow-spell cases in fresh processes, with the time of each pass.
# nvidia-smi samples the GPU beside them (sample_gpu).
set -u
source bench/h200-env.sh  # also pack_out, save, run, sample_gpu and stop_sampling
pack_out
sample_gpu
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
stop_sampling
save
cat $OUT/gpu.txt
for t in "" -r2c -2d; do
  grep "^| [0-9]" $OUT/compare$t.md | cut -d'|' -f2,5,6,7,8 | tr -d ' ' | paste -sd' '
done
# Rounds more than 5% apart: twiddle's round_ms is column 14, cufft_bench's column 8.
for f in $OUT/*.csv; do
  case $f in */clocks.csv|*/reasons.csv|*/apps.csv) continue;; */cufft*) c=8; s=7;; *) c=14; s=10;; esac
  awk -F, -v c=$c -v s=$s -v f=$(basename $f .csv) 'NR > 1 && $c ~ /;/ {
    split($c, r, ";"); lo = r[1] < r[2] ? r[1] : r[2]; hi = r[1] < r[2] ? r[2] : r[1];
    if (hi > 1.05 * lo) printf "%s %s %s | ", f, $s, $c }' $f
done; echo
for f in $OUT/[crn]*-[0-9].csv $OUT/cufft-c2c.csv $OUT/cufft-r2c2.csv $OUT/cufft-n21.csv; do
  case $f in */cufft*) fmt='{printf "%s %.0f | ", $7, $5}';; *) fmt='{printf "%s %.0f [%s] | ", $10, $6, $11}';; esac
  echo "$(basename $f .csv): $(grep -v '^library\|^copy' $f | awk -F, "$fmt")"
done
save
