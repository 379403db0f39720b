#!/usr/bin/env bash
# twiddle bench --plan-time (twice: the drivers' shader caches off, then NVIDIA's on in a fresh
# directory) and the whole default --compare sweep, VkFFT in its default configuration, on one
# H200. Binary: commit c34a941 with the plan-time context kept alive and FFTW's shorter limits
# (both committed after it), built on Debian 12 and run on the device machine's Ubuntu image.
set -o pipefail
source bench/h200-env.sh
B=build-compare/h200/twiddle
$B bench --plan-time --out $OUT/plan.csv 2>&1 | tee $OUT/plan.txt
rm -rf /tmp/nvc
__GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_PATH=/tmp/nvc $B bench --plan-time --out $OUT/plan-nvcache.csv 2>&1 | tee $OUT/plan-nvcache.txt
timeout 450 $B bench --compare --warmup 0.5 --reps 10 --out $OUT/compare.csv 2>&1 | tee $OUT/compare.txt
