#!/usr/bin/env bash
# The two-pass SHT stage with 32, 16 and 8 latitudes per m-major workgroup (runs of 256, 128 and
# 64 B; TW_L is the run in units of 8 B), row pass --columns 32, against one pass and the cuFFT stage.
set -u
source bench/h200-env.sh
S=4096x8192x4095,1024x2048x1023
run() { name=$1; shift; env "$@" .h200/twiddle-y bench --sht $S --pass-times --warmup 0.5 ${EXTRA:-} --out $OUT/$name.csv > $OUT/$name.log 2>&1; grep ' ok \|failed' $OUT/$name.log | sed "s/^/$name /" | cut -c1-150; }
EXTRA="--sht-passes two --columns 32" run l32 X=1
EXTRA="--sht-passes two --columns 32" run l16 TW_L=16
EXTRA="--sht-passes two --columns 32" run l8 TW_L=8
EXTRA="--sht-passes one" run one X=1
EXTRA="--sht-passes two --columns 32 --fields 8" run l16-8f TW_L=16
EXTRA="--sht-passes two --columns 32 --fields 8" run l8-8f TW_L=8
EXTRA="--sht-passes one --fields 8" run one-8f X=1
for f in 1 8; do .h200/cufft_bench --sht --fields $f --warmup 0.5 --out $OUT/cufft-$f.csv > $OUT/cufft-$f.log 2>&1; awk -F, -v f=$f '$1=="cufft"{print "cufft", f, $2, $3, $4, $7, $8}' $OUT/cufft-$f.csv; done
TW_L=16 .h200/twiddle-y bench --sht 4096x8192x4095 --sht-passes two --columns 32 --kernel-stats --warmup 0.1 > $OUT/stats.log 2>&1; grep 'm-major pass 0' $OUT/stats.log | cut -c1-60
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
