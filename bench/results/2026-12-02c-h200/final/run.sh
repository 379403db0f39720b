#!/usr/bin/env bash
# The SHT stage as committed: automatic passes (two from nphi 8192 for synthesis, 4096 for analysis;
# m-major runs of 16 / 8 latitudes; row pass 32 columns) against one pass and the cuFFT stage.
set -u
source bench/h200-env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/smi.txt 2>&1
S=1024x2048x1023,2048x4096x2047,4096x8192x4095
run() { name=$1; shift; .h200/twiddle bench --warmup 0.5 "$@" --out $OUT/$name.csv > $OUT/$name.log 2>&1; grep ' ok \|failed' $OUT/$name.log | sed "s/^/$name /" | cut -c1-150; }
run auto-1 --sht $S,8192x16384x8191 --pass-times
run one-1 --sht $S,8192x16384x8191 --sht-passes one
run auto-8 --sht $S --fields 8 --pass-times
run one-8 --sht $S --fields 8 --sht-passes one
for f in 1 8; do .h200/cufft_bench --sht --fields $f --warmup 0.5 --out $OUT/cufft-$f.csv > $OUT/cufft-$f.log 2>&1; awk -F, -v f=$f '$1=="cufft"{print "cufft", f, $2, $3, $4, $7, $8}' $OUT/cufft-$f.csv; done
.h200/twiddle bench --sht 4096x8192x4095 --kernel-stats --warmup 0.1 > $OUT/stats.log 2>&1; grep 'pass 0' $OUT/stats.log | cut -c1-60
cd $OUT && tar czf all.tgz *.csv *.log smi.txt && rm -f *.csv *.log
