#!/usr/bin/env bash
# The two-pass SHT stage's m-major kernels: join from shared memory (TW_SJOIN), split as a loop (TW_LOOP).
set -u
source bench/h200-env.sh
S=4096x8192x4095
run() { name=$1; shift; env "$@" .h200/twiddle-y bench --sht $S --sht-passes two --columns 32 --pass-times --kernel-stats --warmup 0.5 ${EXTRA:-} --out $OUT/$name.csv > $OUT/$name.log 2>&1; grep ' ok \|failed' $OUT/$name.log | sed "s/^/$name /" | cut -c1-150; grep 'm-major pass 0' $OUT/$name.log | sed -E 's/\[(Binary|Instruction|Shared|Subgroup|Workgroup|Stack|Local)[^]]*\]//g' | cut -c1-100; }
run base X=1
run sjoin TW_SJOIN=1
run loop TW_LOOP=1
run both TW_SJOIN=1 TW_LOOP=1
EXTRA="--max-radix 32" run r32 TW_SJOIN=1
EXTRA="--fields 8" run both8 TW_SJOIN=1 TW_LOOP=1
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
