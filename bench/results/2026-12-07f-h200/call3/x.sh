#!/usr/bin/env bash
# Fifty-first run, third call (.h200/twiddle 0fad42e, as call 1), in what device time was left
# (under 200 s). On an H200: the cases of issue 6's sweep that the forty-fifth run left below
# cuFFT (c2c 2048, 4096, 8192, 32768; 2D 4096^2; R2C 4096, 65536), cuFFT in the same call. On an
# H100 (call 1's card): the tuner (twiddle tune, choices kept in the disk cache, where bench's
# default plans find them) at three lengths below cuFFT in call 1's sweep, then those lengths
# timed with its choices and without, and cuFFT, in the same call.
set -u
source bench/h200-env.sh  # pack_out, save, run, sample_gpu, stop_sampling
pack_out
sample_gpu
w="--warmup 0.5"
if grep -q H200 $OUT/gpu.txt; then
  L=2048,4096,8192,32768
  run cufft 30 cufft_bench $w --cases $L --out "$OUT/cufft.csv"
  run sweep 30 twiddle bench $w --n $L --out "$OUT/sweep.csv"
  run cufft-r2c 20 cufft_bench $w --cases 4096,65536 --r2c --out "$OUT/cufft-r2c.csv"
  run sweep-r2c 20 twiddle bench $w --n 4096,65536 --real --out "$OUT/sweep-r2c.csv"
  run cufft-2d 20 cufft_bench $w --shapes 4096x4096 --out "$OUT/cufft-2d.csv"
  run sweep-2d 20 twiddle bench $w --shapes 4096x4096 --out "$OUT/sweep-2d.csv"
  for t in "" -r2c -2d; do python3 bench/compare.py "$OUT/sweep$t.csv" "$OUT/cufft$t.csv" > "$OUT/compare$t.md" 2>&1; done
  stop_sampling; save
  cat $OUT/gpu.txt
  for t in "" -r2c -2d; do grep "^| [0-9]" $OUT/compare$t.md | cut -d'|' -f2,5,6,7,8 | tr -d ' ' | paste -sd' '; done
  exit 0
fi
L=262144,2097152,4194304
rm -rf "$TWIDDLE_CACHE_DIR"
run untuned 30 twiddle bench $w --n $L --out "$OUT/untuned.csv"
run tune 60 twiddle tune --n $L
run tune-list 10 twiddle tune --list
run tuned 30 twiddle bench $w --n $L --out "$OUT/tuned.csv"
run cufft 30 cufft_bench $w --cases $L --out "$OUT/cufft.csv"
for v in untuned tuned; do python3 bench/compare.py "$OUT/$v.csv" "$OUT/cufft.csv" > "$OUT/compare-$v.md" 2>&1; done
stop_sampling; save
cat $OUT/gpu.txt
for v in untuned tuned; do echo $v; grep "^| [0-9]" $OUT/compare-$v.md | cut -d'|' -f2,5,6,7,8 | tr -d ' ' | paste -sd' '; done
tail -6 $OUT/tune-list.log
