#!/usr/bin/env bash
# Forty-ninth run, second call: Rader's first pass with staged stores. Before (.h200/twiddle,
# 2abf37a) each invocation wrote its column's p results straight to memory, p points apart from
# the neighbouring column's; after (.h200/twiddle-staged, 2abf37a with PassKernel::packed taking
# batch dims that nest densely) the tile goes through shared memory and is written as one run.
# Rader-first lengths c2c and r2c, with --pass-times, beside cuFFT; two rounds of 0.5 s warm-ups.
set -u
source bench/h200-env.sh
pack_out
sample_gpu
w="--warmup 0.5"
C=1110,2368,41984,151552,807003,1048575,2424832,4096
R=4736,83968,2097150
run cufft 60 cufft_bench $w --cases $C --out "$OUT/cufft.csv"
run old 60 twiddle bench $w --pass-times --n $C --out "$OUT/old.csv"
run new 60 twiddle-staged bench $w --pass-times --n $C --out "$OUT/new.csv"
run cufft-r2c 30 cufft_bench $w --cases $R --r2c --out "$OUT/cufft-r2c.csv"
run old-r2c 30 twiddle bench $w --n $R --real --out "$OUT/old-r2c.csv"
run new-r2c 30 twiddle-staged bench $w --n $R --real --out "$OUT/new-r2c.csv"
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
grep -h "pass" $OUT/old.log $OUT/new.log | head -40
save
