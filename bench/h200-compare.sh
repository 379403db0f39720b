#!/usr/bin/env bash
# Issue 6 on the GPU machine: `twiddle bench --plan-time`, then `twiddle bench --compare` (twiddle,
# VkFFT, cuFFT and FFTW in one process on the same GPU, each gated on its accuracy), with the chart.
# Expects the binary in .h200/twiddle (or $TWIDDLE) and the Vulkan loader .debs in .gl/; cuFFT and
# the CUDA runtime are found with dlopen (/usr/local/cuda/lib64 too).
# Usage (on the device machine, from the repository root): bench/h200-compare.sh OUTDIR [bench args]
# such as --vkfft-lut, --warmup 0.5 --reps 10 (the whole sweep then takes about 7 minutes).
set -euo pipefail
out=${1:?usage: h200-compare.sh OUTDIR [twiddle bench args]}
shift
twiddle=${TWIDDLE:-.h200/twiddle}
source bench/h200-env.sh
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv | tee "$out/gpu.txt"
"$twiddle" bench --plan-time --out "$out/plan-time.csv" | tee "$out/plan-time.txt"
"$twiddle" bench --compare --out "$out/compare.csv" "$@" | tee "$out/compare.txt"
