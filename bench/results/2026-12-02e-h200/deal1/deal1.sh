#!/usr/bin/env bash
# r2c with the split's butterflies dealt from + 1 (new) against 7194215 (old); SHT final; cuFFT.
set -u
source bench/h200-env.sh
N="256 512 1024 2048 4096 8192 16384 32768 65536"
fft() { name=$1; B=$2; shift 2; .h200/$B bench --warmup 0.5 --out $OUT/$name.csv "$@" > $OUT/$name.log 2>&1; awk -F, -v t=$name '$1=="twiddle"{printf "%-10s %s %s %s\n", t, $2, $6, $8}' $OUT/$name.csv; }
.h200/cufft_bench --r2c --cases ${N// /,} --warmup 0.5 --out $OUT/cufft-r2c.csv > $OUT/cufft-r2c.log 2>&1
awk -F, '$1=="cufft"{print "cufft-r2c", $2, $5, $6}' $OUT/cufft-r2c.csv
for r in 1 2; do fft new-$r twiddle --real --n $N; fft old-$r twiddle-old --real --n $N; done
.h200/twiddle bench --sht 4096x8192x4095 --pass-times --warmup 0.5 --out $OUT/sht.csv > $OUT/sht.log 2>&1
awk -F, '$1=="twiddle"{print "sht", $2, $3, $8, $11, $13}' $OUT/sht.csv
.h200/cufft_bench --sht --sht-cases 4096x8192x4095 --warmup 0.5 --out $OUT/cufft-sht.csv > $OUT/cufft-sht.log 2>&1
awk -F, '$1=="cufft"{print "cufft", $2, $3, $4, $7}' $OUT/cufft-sht.csv
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
