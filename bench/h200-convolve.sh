#!/usr/bin/env bash
# The convolution benchmark on the GPU machine: twiddle's graphs (a convolution node, the product in
# the forward transform's stores, a multiply node between the transforms) and cuFFT with a multiply
# kernel, on the same device in the same run. Expects .h200/twiddle, .h200/cufft_bench and the
# Vulkan loader .debs in .gl/.
# Usage (on the device machine, from the repository root): bench/h200-convolve.sh OUTDIR
# CASES=4096,8192 and SHAPES=1024x1024 choose the transforms (default: issue 5's 4096 and 1024x1024).
set -euo pipefail
out=${1:?usage: h200-convolve.sh OUTDIR}
source bench/h200-env.sh
cases=${CASES:-4096}
shapes=${SHAPES:-1024x1024}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$out/gpu.txt"
.h200/twiddle bench --convolve "$cases,$shapes" --out "$out/twiddle.csv" | tee "$out/twiddle.txt"
.h200/cufft_bench --convolve --cases "$cases" --shapes "$shapes" --out "$out/cufft.csv" | tee "$out/cufft.txt"
