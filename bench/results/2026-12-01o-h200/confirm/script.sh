#!/usr/bin/env bash
# This commit's binary on issue 3's cases, with cuFFT; r2c around 512-point halves against HEAD.
set -u
source bench/h200-env.sh
N=100,1000,1536,4095,10007,1000000,512,1024,1048576
S=256x256,512x512,1024x1024,2048x2048
show() { awk -F, -v t=$1 '$1=="twiddle"{printf "%s %s %s %s %s\n", t, $10, $5, $6, $9}' $OUT/$1.csv; }
.h200/twiddle-new bench --n $N --shapes $S --warmup 0.5 --out $OUT/new.csv > $OUT/new.txt 2>&1; show new
.h200/cufft_bench --cases $N --shapes $S --out $OUT/cufft.csv > $OUT/cufft.txt 2>&1
awk -F, '$1=="cufft"||$1=="copy"{print $1, $7, $4, $5}' $OUT/cufft.csv
R=1024,512,2048
.h200/twiddle-new bench --real --n $R --warmup 0.5 --out $OUT/rnew.csv > $OUT/rnew.txt 2>&1; show rnew
.h200/twiddle bench --real --n $R --warmup 0.5 --out $OUT/rold.csv > $OUT/rold.txt 2>&1; show rold
.h200/cufft_bench --r2c --cases $R --out $OUT/rcufft.csv > $OUT/rcufft.txt 2>&1
awk -F, '$1=="cufft"{print "rcufft", $7, $4, $5}' $OUT/rcufft.csv
cd $OUT && tar czf all.tgz *.csv *.txt && rm -f *.csv *.txt
