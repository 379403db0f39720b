#!/usr/bin/env bash
# The committed binary's SHT stage at 4096 x 8192 with the row pass taking 8, 16 (default) or 32
# transforms per workgroup (--columns), and the session's switches (.h200/twiddle-x, the committed
# form) with the m-major workgroups in chunks of G column pairs (TW_CHUNK_*). Interleaved, with the
# cuFFT stage in the same call.
set -u
source bench/h200-env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
sht() { name=$1; bin=$2; shift 2; env "$@" TWIDDLE_CACHE_DIR=/tmp/tc-$name $bin bench --sht 4096x8192x4095 --pass-times --warmup 0.5 $EXTRA --out $OUT/$name.csv > $OUT/$name.log 2>&1
  awk -F, -v t=$name '$1=="twiddle"{printf "%-12s %s %s %s\n", t, $2, $8, $13}' $OUT/$name.csv; }
X="TW_ANA16=1 TW_CTW=1 TW_REV_ANA=1 TW_REV_SYN=1"
for r in 1 2; do
  EXTRA= sht base-$r .h200/twiddle X=1
  EXTRA="--columns 8" sht col8-$r .h200/twiddle X=1
  EXTRA="--columns 32" sht col32-$r .h200/twiddle X=1
  EXTRA= sht chunk64-$r .h200/twiddle-x $X TW_CHUNK_ANA=64 TW_CHUNK_SYN=64
  EXTRA= sht chunk32-$r .h200/twiddle-x $X TW_CHUNK_ANA=32 TW_CHUNK_SYN=32
  .h200/cufft_bench --sht --sht-cases 4096x8192x4095 --warmup 0.5 --out $OUT/cufft-$r.csv > $OUT/cufft-$r.log 2>&1
  awk -F, -v t=cufft-$r '$1=="cufft"{print t, $2, $7, $9}' $OUT/cufft-$r.csv
done
cat $OUT/gpu.txt
cd $OUT && tar czf all.tgz *.csv *.log gpu.txt && rm -f *.csv *.log
