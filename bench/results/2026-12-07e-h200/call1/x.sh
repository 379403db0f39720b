#!/usr/bin/env bash
# Fiftieth run, first call. .h200/twiddle is cdaf6d2 (HEAD: Rader's first pass staged, the last
# pass after it in all of the shared memory); .h200/twiddle-r0 the same planner with Rader's pass
# first from 64 points on (kMinRaderFirstLength = 64, not 1024). On an H200 first: issue 6's whole
# sweep (sweep_issue6, cuFFT in the same call, two rounds of 0.5 s warm-ups). Then, on any card:
# 1. Rader's pass first against Bluestein's algorithm below 1024 points, now that Rader's pass is
#    staged (the forty-eighth run's crossing was measured before): twiddle against twiddle-r0.
# 2. The passes after Rader's (1110's 30 points in workgroups of 16, 2368's 64 points in 64):
#    --pass-times with --columns 32 and 64 against the defaults.
# 3. Bluestein's slow non-uniform layouts (1280 = 8 x 10 x 16 in 43 invocations, 5120 in 171,
#    1296 in 48, 2560 in 86): other workgroup sizes and all of the shared memory.
# 4. r2c 2097150 (Rader first), and 2^20 and 4096 with all of the shared memory.
# Device time was short (failed starts): after the sweep, each group runs only while the script
# has run less than a given number of seconds (SECONDS), in the order above.
set -u
source bench/h200-env.sh  # pack_out, save, run, sample_gpu, stop_sampling, sweep_issue6, print_issue6
pack_out
sample_gpu
h200=0; grep -q H200 $OUT/gpu.txt && h200=1
[ $h200 = 1 ] && sweep_issue6
w="--warmup 0.5"
want() { [ $SECONDS -lt $1 ]; }
L=74,111,148,164,222,296,328,370,410,444,592,656,740,820,984,999
run cufft-small 60 cufft_bench $w --cases $L --out "$OUT/cufft-small.csv"
run small-bs 50 twiddle bench $w --n $L --out "$OUT/small-bs.csv"
run small-r0 50 twiddle-r0 bench $w --n $L --out "$OUT/small-r0.csv"
X=1110,2368
w="--warmup 0.3"
want 300 && {
run x-default 30 twiddle bench $w --pass-times --n $X --out "$OUT/x-default.csv"
run x-c32 30 twiddle bench $w --pass-times --columns 32 --n $X --out "$OUT/x-c32.csv"
run x-c64 30 twiddle bench $w --pass-times --columns 64 --n $X --out "$OUT/x-c64.csv"
}
B=1280,1296,2560,5120
want 300 && {
run cufft-bs 30 cufft_bench $w --cases $B --out "$OUT/cufft-bs.csv"
run bs-default 30 twiddle bench $w --kernel-stats --n $B --out "$OUT/bs-default.csv"
run bs-wg256 30 twiddle bench $w --workgroup 256 --shared 49152 --n $B --out "$OUT/bs-wg256.csv"
run bs-wg64 30 twiddle bench $w --workgroup 64 --n $B --out "$OUT/bs-wg64.csv"
run bs-shared 30 twiddle bench $w --shared 49152 --n $B --out "$OUT/bs-shared.csv"
}
want 330 && {
run cufft-r2c 20 cufft_bench $w --cases 2097150 --r2c --out "$OUT/cufft-r2c-rader.csv"
run r2c-rader 30 twiddle bench $w --real --n 2097150 --pass-times --out "$OUT/r2c-rader.csv"
run p2-default 30 twiddle bench $w --n 4096,1048576 --out "$OUT/p2-default.csv"
run p2-shared 30 twiddle bench $w --shared 49152 --n 4096,1048576 --out "$OUT/p2-shared.csv"
}
python3 bench/compare.py "$OUT/small-bs.csv" "$OUT/cufft-small.csv" > "$OUT/compare-small-bs.md" 2>&1
python3 bench/compare.py "$OUT/small-r0.csv" "$OUT/cufft-small.csv" > "$OUT/compare-small-r0.md" 2>&1
for v in default wg256 wg64 shared; do
  [ -f "$OUT/bs-$v.csv" ] && python3 bench/compare.py "$OUT/bs-$v.csv" "$OUT/cufft-bs.csv" > "$OUT/compare-bs-$v.md" 2>&1
done
[ -f "$OUT/r2c-rader.csv" ] && python3 bench/compare.py "$OUT/r2c-rader.csv" "$OUT/cufft-r2c-rader.csv" > "$OUT/compare-r2c-rader.md" 2>&1
stop_sampling
save
cat $OUT/gpu.txt
[ $h200 = 1 ] && print_issue6
for f in small-bs small-r0 bs-default bs-wg256 bs-wg64 bs-shared r2c-rader; do
  [ -f $OUT/compare-$f.md ] || continue
  echo "$f"; grep "^| [0-9]" $OUT/compare-$f.md | cut -d'|' -f2,5,6,7,8 | tr -d ' ' | paste -sd' '
done
for x in default c32 c64; do [ -f $OUT/x-$x.log ] || continue; echo "x-$x"; grep "passes ms" $OUT/x-$x.log | awk '{print $1, $5, $NF}'; done
[ -f $OUT/r2c-rader.log ] && grep "passes ms" $OUT/r2c-rader.log | awk '{print $1, $5, $NF}'
for f in p2-default p2-shared; do [ -f $OUT/$f.csv ] || continue; echo "$f"; cut -d, -f1,2,3,4,5,6,7,8,9 $OUT/$f.csv | tail -2; done
[ -f $OUT/bs-default.log ] && grep -i "register\|spill" $OUT/bs-default.log | head -8
save
