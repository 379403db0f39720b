#!/usr/bin/env bash
# One whole sweep on the GPU machine: twiddle and cuFFT on the same device in the same run.
# Expects the binaries in .h200/ (twiddle, cufft_bench) and the Vulkan loader .debs in .gl/. Build
# twiddle for that machine with -DCMAKE_BUILD_TYPE=Release -DTWIDDLE_BUILD_TESTS=OFF
# -DTWIDDLE_SERVE=OFF -DTWIDDLE_MPI=OFF, so that it needs no shared library but Vulkan's loader.
# Usage (on the device machine, from the repository root): bench/h200-sweep.sh OUTDIR [bench args]
# CASES=512,1024 restricts both libraries to those lengths (a short comparison in the same run);
# SHAPES=256x256,64x64x64 adds arrays transformed over every axis (alone, they replace the sweep).
# REAL=1 times real-to-complex transforms in both libraries (twiddle bench --real, cufft_bench --r2c).
set -euo pipefail
out=${1:?usage: h200-sweep.sh OUTDIR [twiddle bench args]}
shift
source bench/h200-env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$out/gpu.txt"
# The GPU's clocks and power every 200 ms: cases that meet the 700 W limit run
# at a lower SM clock for part of their timing (bench/RESULTS.md, thirty-fourth run).
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu \
  --format=csv -lms 200 > "$out/clocks.csv" 2>&1 &
sampler=$!
trap 'kill $sampler 2>/dev/null' EXIT
.h200/twiddle info > "$out/info.json"
.h200/twiddle bench --out "$out/twiddle.csv" ${CASES:+--n "$CASES"} ${SHAPES:+--shapes "$SHAPES"} ${REAL:+--real} "$@" | tee "$out/twiddle.txt"
.h200/cufft_bench --out "$out/cufft.csv" ${CASES:+--cases "$CASES"} ${SHAPES:+--shapes "$SHAPES"} ${REAL:+--r2c} | tee "$out/cufft.txt"
python3 bench/compare.py "$out/twiddle.csv" "$out/cufft.csv" | tee "$out/compare.md"
