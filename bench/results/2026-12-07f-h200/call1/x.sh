#!/usr/bin/env bash
# Fifty-first run, first call. .h200/twiddle is 0fad42e (the planner of 0eaa2ef: Rader's pass
# first at every length p x m, the passes after it in 64 or 32 columns per workgroup);
# .h200/twiddle-r0 is a61bee1 with Rader's pass first from 64 points and the passes after it in
# the default 16 columns. In one call, on whichever card comes:
# 1. issue 6's whole sweep (sweep_issue6: cuFFT then twiddle, two rounds of 0.5 s warm-ups);
# 2. the after-Rader columns rule measured directly: twiddle against twiddle-r0 and cuFFT at
#    lengths p x m (the fiftieth run's refused third call);
# 3. 2^20 and 4096 with all of the shared memory (--shared 49152) against the default.
set -u
source bench/h200-env.sh  # pack_out, save, run, sample_gpu, stop_sampling, sweep_issue6, print_issue6
pack_out
sample_gpu
sweep_issue6
w="--warmup 0.3"
L=74,296,592,999,1110,2368,151552,1048575
run cufft-rader 40 cufft_bench $w --cases $L --out "$OUT/cufft-rader.csv"
run rader-new 40 twiddle bench $w --n $L --out "$OUT/rader-new.csv"
run rader-r0 40 twiddle-r0 bench $w --n $L --out "$OUT/rader-r0.csv"
for v in new r0; do python3 bench/compare.py "$OUT/rader-$v.csv" "$OUT/cufft-rader.csv" > "$OUT/compare-rader-$v.md" 2>&1; done
run p2-default 30 twiddle bench $w --n 4096,1048576 --out "$OUT/p2-default.csv"
run p2-shared 30 twiddle bench $w --shared 49152 --n 4096,1048576 --out "$OUT/p2-shared.csv"
stop_sampling
save
cat $OUT/gpu.txt
print_issue6
for v in new r0; do echo "rader-$v"; grep "^| [0-9]" $OUT/compare-rader-$v.md | cut -d'|' -f2,5,6,7,8 | tr -d ' ' | paste -sd' '; done
for f in p2-default p2-shared; do echo "$f"; cut -d, -f1-9 $OUT/$f.csv | tail -2; done
