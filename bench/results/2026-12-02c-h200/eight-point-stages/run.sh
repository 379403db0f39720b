#!/usr/bin/env bash
# The SHT stage's m-major kernels, 32 points per invocation (x) against 8 (y), row pass columns.
set -u
source bench/h200-env.sh
S=4096x8192x4095,1024x2048x1023
run() { name=$1; bin=$2; shift 2; .h200/$bin bench --sht $S --pass-times --warmup 0.5 "$@" --out $OUT/$name.csv > $OUT/$name.log 2>&1; grep ' ok \|failed' $OUT/$name.log | sed "s/^/$name /" | cut -c1-150; }
run one-y twiddle-y --sht-passes one
run two-x twiddle-x --sht-passes two
run two-y twiddle-y --sht-passes two
run two-y-c32 twiddle-y --sht-passes two --columns 32
run two-y-c64 twiddle-y --sht-passes two --columns 64
run two-y-c32-8f twiddle-y --sht-passes two --columns 32 --fields 8
run one-y-8f twiddle-y --sht-passes one --fields 8
.h200/twiddle-y bench --sht 4096x8192x4095 --sht-passes two --kernel-stats --warmup 0.1 --out $OUT/stats.csv > $OUT/stats.log 2>&1
grep 'pass 0' $OUT/stats.log | sed -E 's/\[(Binary|Instruction|Shared|Subgroup|Workgroup|Stack)[^]]*\]//g' | cut -c1-150
for f in 1 8; do .h200/cufft_bench --sht --fields $f --warmup 0.5 --out $OUT/cufft-$f.csv > $OUT/cufft-$f.log 2>&1; awk -F, -v f=$f '$1=="cufft"{print "cufft", f, $2, $3, $4, $7, $8}' $OUT/cufft-$f.csv; done
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
