#!/usr/bin/env bash
set -u
OUT=$1
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ]; then export VK_DRIVER_FILES=$icd; break; fi
done
export TWIDDLE_CACHE_DIR=/tmp/twiddle-cache
C=1024x2048x1023,4096x8192x4095
run() { name=$1; shift; .h200/twiddle bench --sht $C --fields 8 --reps 30 "$@" > $OUT/$name.txt 2>&1; echo "== $name $*"; grep -E "synthesis|analysis" $OUT/$name.txt | awk '{print $1, $3, $4, $6, $7}' | tr '\n' ';'; echo; }
run default
run tiles1 --tiles 1
run shared34 --shared 34000
run shared34-tiles1 --shared 34000 --tiles 1
run shared48-wg512 --shared 49152 --workgroup 512
run shared48 --shared 49152
run radix32 --max-radix 32
run radix32-shared48 --max-radix 32 --shared 49152
run nosub --no-subgroup-barriers
