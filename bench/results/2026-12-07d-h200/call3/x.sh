#!/usr/bin/env bash
# Forty-ninth run, third call: Rader's first pass staged (.h200/twiddle-staged, 286114b: also
# the r2c halves, whose padded rows make runs of columns) against 2abf37a (.h200/twiddle) and
# cuFFT, c2c and r2c with --pass-times; then where the later passes of span p go (41984's pass of
# 1024 points at span 41 took 1.0 ms, against about 0.4 for each of 2^20's): --kernel-stats, all
# of the shared memory (--shared 49152), 8 and 16 columns per workgroup, beside 2^20. On an H200,
# issue 6's whole sweep after it (sweep_issue6: none of its cases changed since 2abf37a).
set -u
source bench/h200-env.sh  # pack_out, save, run, sample_gpu, stop_sampling, sweep_issue6, print_issue6
pack_out
sample_gpu
w="--warmup 0.5"
C=1110,2368,41984,151552,807003,1048575,2424832
R=4736,83968,2097150
run cufft 50 cufft_bench $w --cases $C --out "$OUT/cufft-rader.csv"
run cufft-r2c 25 cufft_bench $w --cases $R --r2c --out "$OUT/cufft-rader-r2c.csv"
run old 40 twiddle bench $w --pass-times --n $C --out "$OUT/old.csv"
run new 40 twiddle-staged bench $w --pass-times --n $C --out "$OUT/new.csv"
run old-r2c 20 twiddle bench $w --pass-times --real --n $R --out "$OUT/old-r2c.csv"
run new-r2c 20 twiddle-staged bench $w --pass-times --real --n $R --out "$OUT/new-r2c.csv"
X=41984,2368,1110,1048576
w="--warmup 0.3"
run x-default 25 twiddle-staged bench $w --pass-times --kernel-stats --n $X --out "$OUT/x-default.csv"
run x-shared 25 twiddle-staged bench $w --pass-times --shared 49152 --n $X --out "$OUT/x-shared.csv"
run x-c8 25 twiddle-staged bench $w --pass-times --shared 49152 --columns 8 --n $X --out "$OUT/x-c8.csv"
run x-c16 25 twiddle-staged bench $w --pass-times --shared 49152 --columns 16 --n $X --out "$OUT/x-c16.csv"
for t in "" -r2c; do
  for v in old new; do python3 bench/compare.py "$OUT/$v$t.csv" "$OUT/cufft-rader$t.csv" > "$OUT/compare-$v$t.md" 2>&1; done
done
save
cat $OUT/gpu.txt
for t in "" -r2c; do
  for v in old new; do
    echo "$v$t"; grep "^| [0-9]" "$OUT/compare-$v$t.md" | cut -d'|' -f2,5,6,7,8 | tr -d ' ' | paste -sd' '
  done
done
for x in default shared c8 c16; do echo "x-$x"; grep "passes ms" $OUT/x-$x.log | awk '{print $1, $5, $NF}'; done
grep -i "register\|spill" $OUT/x-default.log | head -12
if grep -q H200 $OUT/gpu.txt; then
  sweep_issue6
  stop_sampling
  save
  print_issue6
fi
stop_sampling
save
