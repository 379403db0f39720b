#!/usr/bin/env bash
# r2c 1024-16384 and c2c 2048-8192 under the planner's knobs, each against the default in the same run.
set -u
OUT=${1:-/tmp/out}
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ]; then export VK_DRIVER_FILES=$icd; break; fi
done
export TWIDDLE_CACHE_DIR=/tmp/twiddle-cache
R=1024,2048,4096,8192,16384
C=1024,2048,4096,8192
i=0
run() {  # label, args...
  local label=$1; shift
  i=$((i+1))
  .h200/twiddle bench --reps 20 "$@" > $OUT/run$i.txt 2>&1
  printf "%-28s" "$label"; grep -E "^ +[0-9]+ " $OUT/run$i.txt | awk '{printf "%s %s %s; ", $1, $5, $6}'; echo
}
run "r2c default" --real --n $R
run "r2c workgroup 128" --real --n $R --workgroup 128
run "r2c shared 49152" --real --n $R --shared 49152
run "r2c max-radix 32" --real --n $R --max-radix 32
run "r2c tiles 1" --real --n $R --tiles 1
run "r2c tiles 8" --real --n $R --tiles 8
run "r2c no-subgroup-barriers" --real --n $R --no-subgroup-barriers
run "r2c default again" --real --n $R
run "c2c default" --n $C
run "c2c workgroup 128" --n $C --workgroup 128
run "c2c shared 49152" --n $C --shared 49152
run "c2c default again" --n $C
cd $OUT && tar czf knobs.tgz run*.txt && rm run*.txt
