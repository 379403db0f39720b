#!/usr/bin/env bash
# HEAD (.h200/twiddle) against this commit (.h200/twiddle-new): 512 with 16 points per invocation,
# every second pass reversed, tile groups of 128; interleaved twice, cuFFT in the same run.
set -u
source bench/h200-env.sh
N=100,1000,1536,4095,10007,512
S=256x256,512x512,1024x1024,2048x2048
show() { awk -F, -v t=$1 '$1=="twiddle"{printf "%s %s %s %s\n", t, $10, $5, $9}' $OUT/$1.csv; }
.h200/twiddle-new bench --n $N --shapes $S --warmup 0.5 --out $OUT/new1.csv > $OUT/new1.txt 2>&1; show new1
.h200/twiddle bench --n $N --shapes $S --warmup 0.5 --out $OUT/old1.csv > $OUT/old1.txt 2>&1; show old1
.h200/cufft_bench --cases $N --shapes $S --out $OUT/cufft.csv > $OUT/cufft.txt 2>&1
awk -F, '$1=="cufft"{print "cufft", $7, $4}' $OUT/cufft.csv
.h200/twiddle-new bench --n $N --shapes $S --warmup 0.5 --out $OUT/new2.csv > $OUT/new2.txt 2>&1; show new2
.h200/twiddle bench --n $N --shapes $S --warmup 0.5 --out $OUT/old2.csv > $OUT/old2.txt 2>&1; show old2
.h200/twiddle-new bench --f64 --n 1024,1048576 --warmup 0.5 --out $OUT/dnew.csv > $OUT/dnew.txt 2>&1; show dnew
.h200/cufft_bench --z2z --cases 1024,1048576 --out $OUT/dcufft.csv > $OUT/dcufft.txt 2>&1
awk -F, '$1=="cufft"{print "dcufft", $7, $4}' $OUT/dcufft.csv
cd $OUT && tar czf all.tgz *.csv *.txt && rm -f *.csv *.txt
