#!/usr/bin/env bash
# Experiment (TW_BLOCKED: the four-step scratch as [column][row][point]; TW_BLOCKFIRST: the m-major
# pass's workgroups latitude blocks fastest) at 4096 x 8192 x 4095, interleaved with the cuFFT stage.
set -u
source bench/h200-env.sh
S=4096x8192x4095
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
for r in 1 2 3; do
  .h200/cufft_bench --sht --sht-cases $S --warmup 0.5 --out $OUT/cufft-sht-$r.csv > $OUT/cufft-sht-$r.log 2>&1
  for v in base blk blkf; do
    case $v in base) X="";; blk) X="TW_BLOCKED=1";; blkf) X="TW_BLOCKED=1 TW_BLOCKFIRST=1";; esac
    env $X TWIDDLE_CACHE_DIR=/tmp/tc-$v .h200/twiddle bench --sht $S --sht-passes two --pass-times --warmup 0.5 --out $OUT/$v-$r.csv > $OUT/$v-$r.log 2>&1
  done
done
for r in 1 2 3; do
  awk -F, -v t=cufft-$r '$1=="cufft"{printf "%-8s %s %s %s %s\n", t, $2, $3, $7, $9}' $OUT/cufft-sht-$r.csv
  for v in base blk blkf; do awk -F, -v t=$v-$r '$1=="twiddle"{printf "%-8s %s %s %s %s %s\n", t, $2, $3, $8, $11, $13}' $OUT/$v-$r.csv; done
done
cat $OUT/gpu.txt
cd $OUT && tar czf all.tgz *.csv *.log gpu.txt && rm -f *.csv *.log
