#!/usr/bin/env bash
# Variants of the two-pass SHT stage's m-major kernels (environment switches, experiment only).
set -u
source bench/h200-env.sh
run() { name=$1; shift; env "$@" .h200/twiddle-x bench --sht 4096x8192x4095 --sht-passes two --pass-times --warmup 0.5 ${EXTRA:-} --out $OUT/$name.csv > $OUT/$name.log 2>&1; grep ' ok ' $OUT/$name.log | sed "s/^/$name /" | cut -c1-160; }
run base X=0
run swapA TW_SWAP_A=1
run swapS TW_SWAP_S=1
EXTRA="--max-error 100" run nomirror TW_NOMIRROR=1
EXTRA="--max-error 100" run swapboth TW_SWAP_A=1 TW_SWAP_S=1 TW_NOMIRROR=1
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
