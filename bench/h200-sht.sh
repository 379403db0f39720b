#!/usr/bin/env bash
# The spherical-harmonic Fourier stage on the GPU machine: twiddle bench --sht against the
# cuFFT-based stage (cufft_bench --sht: R2C or C2R plus the m-major transpose), 1 and 8 fields,
# then twiddle's variants (complex path, radix 4 and 2, no subgroup barriers). Run from the
# repository root with the binaries in .h200/ (twiddle, cufft_bench) and the Vulkan loader's
# .deb in .gl/; OUT is an existing directory. Results: bench/RESULTS.md, ninth run.
set -u
OUT=$1
source bench/h200-env.sh
C=1024x2048x1023,4096x8192x4095
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
for F in 1 8; do
  .h200/cufft_bench --sht --sht-cases $C --fields $F --reps 50 --out $OUT/cufft-sht-f$F.csv > $OUT/cufft-sht-f$F.txt 2>&1
  .h200/twiddle bench --sht $C --fields $F --reps 50 --out $OUT/twiddle-sht-f$F.csv > $OUT/twiddle-sht-f$F.txt 2>&1
  .h200/twiddle bench --sht $C --fields $F --reps 50 --complex-path --out $OUT/twiddle-sht-full-f$F.csv > $OUT/twiddle-sht-full-f$F.txt 2>&1
done
.h200/twiddle bench --sht $C --fields 8 --reps 50 --max-radix 4 --out $OUT/twiddle-sht-r4-f8.csv > $OUT/twiddle-sht-r4-f8.txt 2>&1
for F in 1 8; do
  echo "== fields $F: cufft"; cat $OUT/cufft-sht-f$F.csv
  echo "== twiddle"; cat $OUT/twiddle-sht-f$F.csv
  echo "== twiddle complex path"; grep -v "^library\|^copy" $OUT/twiddle-sht-full-f$F.csv
done
echo "== radix 4, 8 fields"; grep -v "^library\|^copy" $OUT/twiddle-sht-r4-f8.csv
cat $OUT/gpu.txt
.h200/twiddle bench --sht $C --fields 8 --reps 50 --max-radix 2 --out $OUT/twiddle-sht-r2-f8.csv > $OUT/twiddle-sht-r2-f8.txt 2>&1
.h200/twiddle bench --sht $C --fields 8 --reps 50 --no-subgroup-barriers --out $OUT/twiddle-sht-nosub-f8.csv > $OUT/twiddle-sht-nosub-f8.txt 2>&1
echo "== radix 2, 8 fields"; grep -v "^library\|^copy" $OUT/twiddle-sht-r2-f8.csv
echo "== no subgroup barriers, 8 fields"; grep -v "^library\|^copy" $OUT/twiddle-sht-nosub-f8.csv
cd $OUT && tar czf ../sht-results.tgz . && mv ../sht-results.tgz . && ls
