#!/usr/bin/env bash
# The same binary as final4.sh: 1D cases again (warm-up 0.3 s, then the default 1 s), and 2D.
set -u
source bench/h200-env.sh
show() { awk -F, -v t=$1 '$1=="twiddle"{printf "%s %s %s %s %s\n", t, $10, $5, $6, $9}' $OUT/$1.csv; }
showc() { awk -F, -v t=$1 '$1=="cufft"{print t, $7, $4, $5}' $OUT/$1.csv; }
.h200/cufft_bench --cases 100,1000,1536 --shapes 512x512,1024x1024 --out $OUT/cufft-4.csv > /dev/null 2>&1; showc cufft-4
.h200/twiddle bench --n 100 1000 1536 --warmup 0.3 --out $OUT/twiddle-4.csv > /dev/null 2>&1; show twiddle-4
.h200/twiddle bench --n 100 1000 1536 --shapes 512x512 1024x1024 --out $OUT/twiddle-5.csv > /dev/null 2>&1; show twiddle-5
cd $OUT && tar czf all.tgz *.csv && rm -f *.csv
