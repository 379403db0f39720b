#!/usr/bin/env bash
# The committed binary (.h200/twiddle): r2c 2^8 to 2^20 and the SHT stage (1024 x 2048, 2048 x
# 4096 in one and two passes, 4096 x 8192, and 4096 x 8192 with 8 fields), cuFFT R2C and the cuFFT
# stage in the same call, interleaved. Then an experiment (.h200/twiddle-x, the session's switches):
# the analysis row pass's factors loaded as it stores (TW_ROWOP=store) against loaded ahead.
set -u
source bench/h200-env.sh
NR="256 512 1024 2048 4096 8192 16384 32768 65536 131072 262144 524288 1048576"
S=1024x2048x1023,4096x8192x4095
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
for r in 1 2; do
  .h200/cufft_bench --r2c --cases ${NR// /,} --warmup 0.5 --out $OUT/cufft-r2c-$r.csv > $OUT/cufft-r2c-$r.log 2>&1
  .h200/twiddle bench --real --n $NR --warmup 0.5 --out $OUT/r2c-$r.csv > $OUT/r2c-$r.log 2>&1
done
for r in 1 2 3; do
  .h200/cufft_bench --sht --sht-cases $S,2048x4096x2047 --warmup 0.5 --out $OUT/cufft-sht-$r.csv > $OUT/cufft-sht-$r.log 2>&1
  .h200/twiddle bench --sht ${S//,/ } --pass-times --warmup 0.5 --out $OUT/sht-$r.csv > $OUT/sht-$r.log 2>&1
done
for p in one two; do .h200/twiddle bench --sht 2048x4096x2047 --sht-passes $p --warmup 0.5 --out $OUT/sht-2048-$p.csv > $OUT/sht-2048-$p.log 2>&1; done
.h200/cufft_bench --sht --sht-cases 4096x8192x4095 --fields 8 --warmup 0.5 --out $OUT/cufft-sht-f8.csv > $OUT/cufft-sht-f8.log 2>&1
.h200/twiddle bench --sht 4096x8192x4095 --fields 8 --warmup 0.5 --out $OUT/sht-f8.csv > $OUT/sht-f8.log 2>&1
.h200/twiddle bench --sht 4096x8192x4095 --kernel-stats --warmup 0.5 > $OUT/stats.log 2>&1
X="TW_ANA16=1 TW_CTW=1 TW_REV_ANA=1 TW_REV_SYN=1"
for r in 1 2; do
  for v in ahead store; do env $X TW_ROWOP=$v TWIDDLE_CACHE_DIR=/tmp/tc-x-$v .h200/twiddle-x bench --sht 4096x8192x4095 --sht-passes two --pass-times --warmup 0.5 --out $OUT/x-$v-$r.csv > $OUT/x-$v-$r.log 2>&1; done
done
for r in 1 2; do awk -F, -v t=r2c-$r '$1=="twiddle"{printf "%-8s %s %s %s\n", t, $2, $6, $8}' $OUT/r2c-$r.csv; awk -F, -v t=cufft-$r '$1=="cufft"{printf "%-8s %s %s %s\n", t, $2, $5, $6}' $OUT/cufft-r2c-$r.csv; done
for r in 1 2 3; do awk -F, -v t=sht-$r '$1=="twiddle"{printf "%-8s %s %s %s %s %s\n", t, $2, $3, $8, $11, $13}' $OUT/sht-$r.csv; awk -F, -v t=csht-$r '$1=="cufft"{printf "%-8s %s %s %s %s\n", t, $2, $3, $7, $9}' $OUT/cufft-sht-$r.csv; done
for f in sht-2048-one sht-2048-two sht-f8 cufft-sht-f8; do awk -F, -v t=$f '$1=="twiddle"||$1=="cufft"{printf "%-12s %s %s %s\n", t, $2, $8, $7}' $OUT/$f.csv; done
for f in $OUT/x-*.csv; do awk -F, -v t=$(basename $f .csv) '$1=="twiddle" && $2=="analysis"{printf "%-12s %s %s %s\n", t, $2, $8, $13}' $f; done
grep -i "m-major\|rows" $OUT/stats.log
cat $OUT/gpu.txt
cd $OUT && tar czf all.tgz *.csv *.log gpu.txt && rm -f *.csv *.log
