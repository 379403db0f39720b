#!/usr/bin/env bash
# Where the two-pass SHT stage's m-major kernels spend their time: without the column DFTs
# (TW_NODFT), without join and split (TW_NOSPLIT), without both (a transpose through shared memory).
set -u
source bench/h200-env.sh
S=4096x8192x4095
run() { name=$1; shift; env "$@" .h200/twiddle-y bench --sht $S --sht-passes two --columns 32 --pass-times --warmup 0.5 --max-error 100 ${EXTRA:-} --out $OUT/$name.csv > $OUT/$name.log 2>&1; grep ' ok \|failed' $OUT/$name.log | sed "s/^/$name /" | cut -c1-150; }
run base X=1
run nodft TW_NODFT=1
run nosplit TW_NOSPLIT=1
run transpose TW_NODFT=1 TW_NOSPLIT=1
EXTRA="--fields 8" run transpose8 TW_NODFT=1 TW_NOSPLIT=1
EXTRA="--fields 8" run base8 X=1
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
