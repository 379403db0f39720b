#!/usr/bin/env bash
# Rader's pass first in longer lengths (planner: rader_first_passes), against Bluestein's
# algorithm, which took every length with a prime factor above 31 that is not itself a prime
# before. One call on whichever card comes: cuFFT, then twiddle before the change (.h200/twiddle,
# built from 1f42f4a: the same kernels and planner for these lengths) and after it
# (.h200/twiddle-rader), each timed in two rounds of 0.5 s warm-ups; c2c at 2^26 complex values
# and r2c at 2^26 reals per case. The lengths: 37 and 41 times 2, 3, 30, 64, 1024, 4096, 65536,
# 3^9 and 3 x 5^2 x 11 x 31 (2^20 - 1); the prime 10007 and 4096 for reference.
set -u
source bench/h200-env.sh  # pack_out, save, run, sample_gpu, stop_sampling
pack_out
sample_gpu
w="--warmup 0.5"
C=74,111,1110,2368,41984,151552,1048575,2424832,807003,10007,4096
R=148,4736,83968,2097150,4096
run cufft 90 cufft_bench $w --cases $C --out "$OUT/cufft.csv"
run old 90 twiddle bench $w --n $C --out "$OUT/old.csv"
run new 90 twiddle-rader bench $w --n $C --out "$OUT/new.csv"
run cufft-r2c 45 cufft_bench $w --cases $R --r2c --out "$OUT/cufft-r2c.csv"
run old-r2c 45 twiddle bench $w --n $R --real --out "$OUT/old-r2c.csv"
run new-r2c 45 twiddle-rader bench $w --n $R --real --out "$OUT/new-r2c.csv"
for t in "" -r2c; do
  for v in old new; do python3 bench/compare.py "$OUT/$v$t.csv" "$OUT/cufft$t.csv" > "$OUT/compare-$v$t.md" 2>&1; done
done
stop_sampling
save
cat $OUT/gpu.txt
for t in "" -r2c; do
  for v in old new; do
    echo "$v$t"; grep "^| [0-9]" "$OUT/compare-$v$t.md" | cut -d'|' -f2,3,5,6,7,8 | tr -d ' ' | paste -sd' '
  done
done
