#!/usr/bin/env bash
# Fifty-first run, third call (.h200/twiddle 0fad42e, as call 1). On an H200: issue 6's whole
# sweep (sweep_issue6), never yet run there with two timing rounds. On an H100 (call 1's card):
# the tuner (twiddle tune, choices kept in the disk cache, where bench's default plans find them)
# at the lengths below cuFFT in call 1's sweep, then those lengths timed with its choices and
# cuFFT in the same call.
set -u
source bench/h200-env.sh  # pack_out, save, run, sample_gpu, stop_sampling, sweep_issue6, print_issue6
pack_out
sample_gpu
if grep -q H200 $OUT/gpu.txt; then
  sweep_issue6
  stop_sampling; save
  cat $OUT/gpu.txt; print_issue6
  exit 0
fi
w="--warmup 0.5"
L=8192,32768,262144,524288,1048576,2097152,4194304,8388608,16777216
rm -rf "$TWIDDLE_CACHE_DIR"
run untuned 60 twiddle bench $w --n $L --out "$OUT/untuned.csv"
run tune 150 twiddle tune --n $L
run tune-list 10 twiddle tune --list
run tuned 60 twiddle bench $w --n $L --out "$OUT/tuned.csv"
run cufft 60 cufft_bench $w --cases $L --out "$OUT/cufft.csv"
for v in untuned tuned; do python3 bench/compare.py "$OUT/$v.csv" "$OUT/cufft.csv" > "$OUT/compare-$v.md" 2>&1; done
stop_sampling; save
cat $OUT/gpu.txt
for v in untuned tuned; do echo $v; grep "^| [0-9]" $OUT/compare-$v.md | cut -d'|' -f2,5,6,7,8 | tr -d ' ' | paste -sd' '; done
tail -12 $OUT/tune-list.log
