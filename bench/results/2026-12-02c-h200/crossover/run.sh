#!/usr/bin/env bash
# One pass against two (16 and 8 latitudes per m-major workgroup) at nphi 4096 and 16384.
set -u
source bench/h200-env.sh
S=2048x4096x2047,8192x16384x8191
run() { name=$1; shift; env "$@" .h200/twiddle-y bench --sht $S --warmup 0.5 ${EXTRA:-} --out $OUT/$name.csv > $OUT/$name.log 2>&1; grep ' ok \|failed' $OUT/$name.log | sed "s/^/$name /" | cut -c1-150; }
EXTRA="--sht-passes one" run one X=1
EXTRA="--sht-passes two --columns 32" run l16 TW_L=16
EXTRA="--sht-passes two --columns 32" run l8 TW_L=8
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
