#!/usr/bin/env bash
# r2c: split through subgroup shuffles (default) against the shared-memory split, A B A B, then cuFFT R2C.
set -u
OUT=${1:-/tmp/out}
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ]; then export VK_DRIVER_FILES=$icd; break; fi
done
export TWIDDLE_CACHE_DIR=/tmp/twiddle-cache
C=256,512,1024,2048,4096,8192,16384,32768
i=0
for v in "" --no-subgroup-shuffles "" --no-subgroup-shuffles; do  # 256 (8 invocations per column) took shuffles in this run; the planner now keeps it on shared memory
  i=$((i+1))
  .h200/twiddle bench --real --n $C --reps 20 $v --out $OUT/tw$i.csv > $OUT/tw$i.txt 2>&1
  echo "== run $i ${v:-shuffles}"; grep -E "^ +[0-9]+ " $OUT/tw$i.txt | awk '{print $1, $5, $6}' | tr '\n' ';'; echo
done
.h200/cufft_bench --r2c --cases $C --out $OUT/cufft.csv > $OUT/cufft.txt 2>&1
python3 bench/compare.py $OUT/tw1.csv $OUT/cufft.csv > $OUT/compare1.md
python3 bench/compare.py $OUT/tw3.csv $OUT/cufft.csv > $OUT/compare3.md
python3 bench/compare.py $OUT/tw2.csv $OUT/cufft.csv > $OUT/compare2.md
cat $OUT/compare1.md; cat $OUT/compare2.md | tail -9
for v in "" --no-subgroup-shuffles; do
  echo "== stats ${v:-shuffles}"; .h200/twiddle bench --real --n 1024,4096,8192 --reps 5 --kernel-stats $v 2>&1 | grep -iE "regist|^ +[0-9]+ " | head -12
done
