#!/usr/bin/env bash
# The SHT four-step m-major passes with their workgroups in reverse order (TW_REV_*=1: the first
# take the rows the row pass wrote last, in L2) and with column pairs in chunks of G
# (TW_CHUNK_*=G), interleaved, with the cuFFT stage in the same call.
set -u
source bench/h200-env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
sht() { name=$1; shift; env "$@" TWIDDLE_CACHE_DIR=/tmp/tc-$name .h200/twiddle bench --sht 4096x8192x4095 --pass-times --warmup 0.5 --out $OUT/$name.csv > $OUT/$name.log 2>&1
  awk -F, -v t=$name '$1=="twiddle"{printf "%-12s %s %s %s %s\n", t, $2, $8, $11, $13}' $OUT/$name.csv; }
for r in 1 2; do
  sht base-$r X=1
  sht rev-$r TW_REV_ANA=1 TW_REV_SYN=1
  sht revc16-$r TW_REV_ANA=1 TW_REV_SYN=1 TW_CHUNK_ANA=16 TW_CHUNK_SYN=32
  sht revc32-$r TW_REV_ANA=1 TW_REV_SYN=1 TW_CHUNK_ANA=32 TW_CHUNK_SYN=64
  sht c16-$r TW_CHUNK_ANA=16 TW_CHUNK_SYN=32
  .h200/cufft_bench --sht --sht-cases 4096x8192x4095 --warmup 0.5 --out $OUT/cufft-$r.csv > $OUT/cufft-$r.log 2>&1
  awk -F, -v t=cufft-$r '$1=="cufft"{print t, $2, $7, $9}' $OUT/cufft-$r.csv
done
cat $OUT/gpu.txt
cd $OUT && tar czf all.tgz *.csv *.log gpu.txt && rm -f *.csv *.log
