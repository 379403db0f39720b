#!/usr/bin/env bash
# The SHT stage with analysis's m-major workgroups taking two tiles each (as committed), three
# repetitions interleaved with the cuFFT stage.
set -u
source bench/h200-env.sh
S=1024x2048x1023,4096x8192x4095
for r in 1 2 3; do
  .h200/cufft_bench --sht --sht-cases $S --warmup 0.5 --out $OUT/cufft-sht-$r.csv > $OUT/cufft-sht-$r.log 2>&1
  .h200/twiddle bench --sht $S --pass-times --warmup 0.5 --out $OUT/sht-$r.csv > $OUT/sht-$r.log 2>&1
done
for r in 1 2 3; do awk -F, -v t=sht-$r '$1=="twiddle"{printf "%-8s %s %s %s %s %s\n", t, $2, $3, $8, $11, $13}' $OUT/sht-$r.csv; awk -F, -v t=csht-$r '$1=="cufft"{printf "%-8s %s %s %s %s\n", t, $2, $3, $7, $9}' $OUT/cufft-sht-$r.csv; done
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
