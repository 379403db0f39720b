#!/usr/bin/env bash
# The stage by default at 8 fields (8192 x 16384 at 8 fields exceeds maxStorageBufferRange), cuFFT in the same call.
set -u
source bench/h200-env.sh
S=1024x2048x1023,2048x4096x2047,4096x8192x4095
.h200/twiddle bench --sht $S --fields 8 --pass-times --warmup 0.5 --out $OUT/final-8.csv > $OUT/final-8.log 2>&1
awk -F, '$1=="twiddle"{printf "final-8 %s %s %s %s %s %s\n", substr($2,1,5), $3, $7, $8, $11, $13}' $OUT/final-8.csv
.h200/cufft_bench --sht --sht-cases $S --fields 8 --warmup 0.5 --out $OUT/cufft-sht-8.csv > $OUT/cufft-sht-8.log 2>&1
awk -F, '$1=="cufft"{print "cufft 8", $2, $3, $4, $7}' $OUT/cufft-sht-8.csv
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
