#!/usr/bin/env bash
# Thirty-seventh run, fourth call (for an H200 first): r2c of short rows with smaller butterflies,
# after the H100's tuner took radix 4 at r2c 256 (+18%, call3): the defaults, --max-radix 4 and
# --max-radix 8 at r2c 128 to 1024, alternated twice, with cuFFT's r2c once.
set -u
source bench/h200-env.sh  # also pack_out, save and run
pack_out
R=128,256,512,1024
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
run cufft-r2c 30 cufft_bench --cases $R --r2c --out $OUT/cufft-r2c.csv
for r in 1 2; do
  run default-$r 20 twiddle bench --real --n $R --out $OUT/default-$r.csv
  run radix4-$r 20 twiddle bench --real --n $R --max-radix 4 --out $OUT/radix4-$r.csv
  run radix8-$r 20 twiddle bench --real --n $R --max-radix 8 --out $OUT/radix8-$r.csv
done
save
sed 's/\.[0-9]* / /' $OUT/times.txt
grep -v "^library" $OUT/cufft-r2c.csv | cut -d, -f1,2,5 | tr '\n' ' '; echo
for f in $OUT/default-*.csv $OUT/radix*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
