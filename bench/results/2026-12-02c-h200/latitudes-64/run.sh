#!/usr/bin/env bash
# The two-pass SHT stage's m-major kernels with 64 latitudes per workgroup (TW_L=64: runs of 512 B),
# with and without the column DFTs and join / split.
set -u
source bench/h200-env.sh
S=4096x8192x4095
run() { name=$1; shift; env "$@" .h200/twiddle-y bench --sht $S --sht-passes two --columns 32 --pass-times --warmup 0.5 --max-error 100 ${EXTRA:-} --out $OUT/$name.csv > $OUT/$name.log 2>&1; grep ' ok \|failed' $OUT/$name.log | sed "s/^/$name /" | cut -c1-150; }
run base X=1
run l64 TW_L=64
run l64transpose TW_L=64 TW_NODFT=1 TW_NOSPLIT=1
run l16transpose TW_L=16 TW_NODFT=1 TW_NOSPLIT=1
EXTRA="--fields 8" run l64-8 TW_L=64
.h200/twiddle-y bench --n 4096 --shapes 4096x4096 --pass-times --warmup 0.5 --out $OUT/c2c.csv > $OUT/c2c.log 2>&1; grep ' ok' $OUT/c2c.log | cut -c1-150
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
