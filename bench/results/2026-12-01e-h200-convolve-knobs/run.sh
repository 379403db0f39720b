#!/usr/bin/env bash
# Planner knobs on the convolution node: 1024x1024 and 4096.
set -uo pipefail
out=$1
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export TWIDDLE_CACHE_DIR=/tmp/twiddle-cache
run() {
  echo "== $*" >> "$out/summary.txt"
  .h200/twiddle bench --convolve 1024x1024,4096 "$@" 2>&1 | grep " node" >> "$out/summary.txt"
}
run
run --max-radix 16
run --workgroup 256
run --workgroup 64
run --tiles 1
run --tiles 8
run --shared 49152
run --no-subgroup-barriers
run
