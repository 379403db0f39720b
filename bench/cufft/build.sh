#!/usr/bin/env bash
# Builds the cuFFT baseline benchmark:  bench/cufft/build.sh OUTDIR  ->  OUTDIR/cufft_bench
# Environment: NVCC (default /usr/local/cuda/bin/nvcc), CUFFT_RPATH (default /usr/local/cuda/lib64).
set -euo pipefail

if [[ $# -ne 1 ]]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi

outdir=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
rpath=${CUFFT_RPATH:-/usr/local/cuda/lib64}

mkdir -p "$outdir"
set -x
"$nvcc" -O3 -std=c++17 \
    -gencode arch=compute_90,code=sm_90 \
    -gencode arch=compute_90,code=compute_90 \
    -Xcompiler -Wall,-Wextra \
    -I"$here/../../src" \
    -o "$outdir/cufft_bench" "$here/cufft_bench.cu" \
    -lcufft -Xlinker -rpath -Xlinker "$rpath"
