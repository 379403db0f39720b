#!/usr/bin/env bash
# The whole comparison: f32 powers of two, issue 3's other lengths, primes (Rader's and
# Bluestein's) and 2D/3D shapes, then f64 against Z2Z; twiddle and cuFFT in the same run.
# Usage (on the device machine, from the repository root, binaries in .h200/ as for
# h200-sweep.sh): bench/h200-full.sh OUTDIR. Prints a short table; full results under OUTDIR.
set -u
out=$1
P=8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216
mkdir -p "$out/f32" "$out/f64"
CASES=$P,100,1000,1536,4095,10007,1000000,17,37,97,101,401,4001,1009,65537,999983 \
  SHAPES=256x256,512x512,1024x1024,2048x2048,4096x4096,16x16x16,32x32x32,64x64x64,128x128x128,256x256x256,97x97 \
  bash bench/h200-sweep.sh "$out/f32" > "$out/f32/log" 2>&1
source bench/h200-env.sh  # again for this shell (h200-sweep.sh ran in its own)
.h200/twiddle bench --f64 --n 1024,4096,65536,262144,1048576,100,1000,4095,97,401,10007 --shapes 512x512 --out "$out/f64/twiddle.csv" > "$out/f64/twiddle.txt" 2>&1
.h200/cufft_bench --z2z --cases 1024,4096,65536,262144,1048576,100,1000,4095,97,401,10007 --shapes 512x512 --out "$out/f64/cufft.csv" > "$out/f64/cufft.txt" 2>&1
python3 bench/compare.py "$out/f64/twiddle.csv" "$out/f64/cufft.csv" > "$out/f64/compare.md"
grep "^| [0-9]" "$out/f32/compare.md" | cut -d'|' -f2,4,5,6,8
echo f64; grep "^| [0-9]" "$out/f64/compare.md" | cut -d'|' -f2,4,5,6,8
