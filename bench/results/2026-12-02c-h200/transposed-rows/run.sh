#!/usr/bin/env bash
# The two-pass SHT stage: four-step (default) against the transposed form (TW_TJ=1: the m-major
# pass a transpose with join / split, the rows a plain c2c plan of M points), with the cuFFT stage.
set -u
source bench/h200-env.sh
S=4096x8192x4095,2048x4096x2047
run() { name=$1; shift; env "$@" .h200/twiddle-tj bench --sht $S --sht-passes two --pass-times --warmup 0.5 ${EXTRA:-} --out $OUT/$name.csv > $OUT/$name.log 2>&1; grep ' ok \|failed' $OUT/$name.log | sed "s/^/$name /" | cut -c1-150; }
run fourstep X=1
run tj TW_TJ=1
EXTRA="--fields 8" run tj8 TW_TJ=1
.h200/cufft_bench --sht --fields 1 --warmup 0.5 --out $OUT/cufft-1.csv > $OUT/cufft-1.log 2>&1; awk -F, '$1=="cufft"{print "cufft", $2, $3, $4, $7}' $OUT/cufft-1.csv
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
