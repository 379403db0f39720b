#!/usr/bin/env bash
# Exchange bank maps chosen per exchange (new: the maps that fit the planner's arrays; big: arrays
# 1/16 larger and a + (a >> 6) + 6 (a >> 7) allowed; old: pad() everywhere, the code before), and
# the SHT m-major pass's workgroup order (TW_ORDER_ANA / TW_ORDER_SYN = 1: latitude blocks
# fastest), interleaved, with cuFFT in the same call.
set -u
source bench/h200-env.sh
NR="256 512 1024 2048 4096 8192 16384 32768 65536 131072 262144 1048576"
NC="2048 4096 32768 65536 131072 262144 524288"
run() { name=$1; shift; env TWIDDLE_CACHE_DIR=/tmp/tc-$name "$@"; }
fft() { name=$1; shift; v=$1; shift; case $v in old) e=TW_EXP_NOMAP=1;; big) e=TW_EXP_BIGMAP=1;; *) e=X=1;; esac
  env $e TWIDDLE_CACHE_DIR=/tmp/tc-$v .h200/twiddle bench --warmup 0.5 --out $OUT/$name.csv "$@" > $OUT/$name.log 2>&1
  awk -F, -v t=$name '$1=="twiddle"{printf "%-12s %s %s %s\n", t, $2, $6, $8}' $OUT/$name.csv; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
.h200/cufft_bench --r2c --cases ${NR// /,} --warmup 0.5 --out $OUT/cufft-r2c.csv > $OUT/cufft-r2c.log 2>&1
.h200/cufft_bench --cases ${NC// /,} --warmup 0.5 --out $OUT/cufft-c2c.csv > $OUT/cufft-c2c.log 2>&1
for r in 1 2; do for v in old new big; do fft r2c-$v-$r $v --real --n $NR; done; done
for r in 1 2; do for v in old new big; do fft c2c-$v-$r $v --n $NC; done; done
sht() { name=$1; shift; env "$@" TWIDDLE_CACHE_DIR=/tmp/tc-$name .h200/twiddle bench --sht 4096x8192x4095 --pass-times --warmup 0.5 --out $OUT/$name.csv > $OUT/$name.log 2>&1
  awk -F, -v t=$name '$1=="twiddle"{printf "%-12s %s %s %s %s\n", t, $2, $8, $11, $13}' $OUT/$name.csv; }
for r in 1 2 3; do sht sht-o0-$r X=1; sht sht-o1-$r TW_ORDER_ANA=1 TW_ORDER_SYN=1; done
.h200/cufft_bench --sht --sht-cases 4096x8192x4095 --warmup 0.5 --out $OUT/cufft-sht.csv > $OUT/cufft-sht.log 2>&1
awk -F, '$1=="cufft"{print "cufft-sht", $2, $3, $4, $7}' $OUT/cufft-sht.csv
awk -F, '$1=="cufft"{print "cufft-r2c", $2, $5, $6}' $OUT/cufft-r2c.csv
awk -F, '$1=="cufft"{print "cufft-c2c", $2, $5, $6}' $OUT/cufft-c2c.csv
cat $OUT/gpu.txt
cd $OUT && tar czf all.tgz *.csv *.log gpu.txt && rm -f *.csv *.log
