#!/usr/bin/env bash
# Rader's pass first, second call: where it starts to beat Bluestein's algorithm. The first call
# had it slower at 37 x 2 and 37 x 3 and faster from 37 x 30 on; here 37 and 41 times 4 to 16,
# cuFFT then twiddle before (.h200/twiddle) and after (.h200/twiddle-rader), as in call1.
set -u
source bench/h200-env.sh  # pack_out, save, run, sample_gpu, stop_sampling
pack_out
sample_gpu
w="--warmup 0.5"
C=148,222,296,370,444,592,164,205,246,328,410,656
run cufft 60 cufft_bench $w --cases $C --out "$OUT/cufft.csv"
run old 60 twiddle bench $w --n $C --out "$OUT/old.csv"
run new 60 twiddle-rader bench $w --n $C --out "$OUT/new.csv"
for v in old new; do python3 bench/compare.py "$OUT/$v.csv" "$OUT/cufft.csv" > "$OUT/compare-$v.md" 2>&1; done
stop_sampling
save
cat $OUT/gpu.txt
for v in old new; do
  echo "$v"; grep "^| [0-9]" "$OUT/compare-$v.md" | cut -d'|' -f2,3,5,6,7,8 | tr -d ' ' | paste -sd' '
done
