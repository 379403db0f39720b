#!/usr/bin/env bash
# r2c of multi-pass lengths: split fused into the last pass (new) against split in a pass of its own (twiddle-prev), and cuFFT R2C.
set -u
OUT=${1:-/tmp/out}
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ]; then export VK_DRIVER_FILES=$icd; break; fi
done
export TWIDDLE_CACHE_DIR=/tmp/twiddle-cache
C=65536,131072,262144,524288,1048576,4194304,16777216
i=0
run() {  # label, binary, args...
  local label=$1 bin=$2; shift 2
  i=$((i+1))
  .h200/$bin bench --real --reps 20 --n $C "$@" --out $OUT/run$i.csv > $OUT/run$i.txt 2>&1
  printf "%-22s" "$label"; grep -E "^ +[0-9]+ " $OUT/run$i.txt | awk '{printf "%s %s %s %s; ", $1, $3, $5, $6}'; echo
}
run "fused" twiddle
run "separate (prev)" twiddle-prev
run "fused columns 32" twiddle --columns 32
run "fused columns 8" twiddle --columns 8
run "fused again" twiddle
run "separate again" twiddle-prev
.h200/cufft_bench --r2c --cases $C --out $OUT/cufft.csv > $OUT/cufft.txt 2>&1
python3 bench/compare.py $OUT/run1.csv $OUT/cufft.csv > $OUT/compare-fused.md
python3 bench/compare.py $OUT/run2.csv $OUT/cufft.csv > $OUT/compare-separate.md
cat $OUT/compare-fused.md
cd $OUT && tar czf runs.tgz run*.txt run*.csv && rm run*.txt run*.csv
