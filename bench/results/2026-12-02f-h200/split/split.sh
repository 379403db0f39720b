#!/usr/bin/env bash
# r2c's split through lanes with load_sign in a uniform branch and its 1/2 folded into the stores'
# scale (new), against the per-exchange bank maps alone (maps); the SHT stage with both; cuFFT in
# the same call.
set -u
source bench/h200-env.sh
NR="256 512 1024 2048 4096 8192 16384 32768 65536"
fft() { name=$1; B=$2; shift 2; TWIDDLE_CACHE_DIR=/tmp/tc-$B .h200/$B bench --warmup 0.5 --out $OUT/$name.csv "$@" > $OUT/$name.log 2>&1
  awk -F, -v t=$name '$1=="twiddle"{printf "%-12s %s %s %s\n", t, $2, $6, $8}' $OUT/$name.csv; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
.h200/cufft_bench --r2c --cases ${NR// /,} --warmup 0.5 --out $OUT/cufft-r2c.csv > $OUT/cufft-r2c.log 2>&1
for r in 1 2 3; do fft r2c-new-$r twiddle --real --n $NR; fft r2c-maps-$r twiddle-maps --real --n $NR; done
.h200/cufft_bench --r2c --cases ${NR// /,} --warmup 0.5 --out $OUT/cufft-r2c-2.csv > $OUT/cufft-r2c-2.log 2>&1
sht() { name=$1; B=$2; shift 2; TWIDDLE_CACHE_DIR=/tmp/tc-$B .h200/$B bench --sht 1024x2048x1023,4096x8192x4095 --pass-times --warmup 0.5 --out $OUT/$name.csv > $OUT/$name.log 2>&1
  awk -F, -v t=$name '$1=="twiddle"{printf "%-12s %s %s %s %s %s\n", t, $2, $3, $8, $11, $13}' $OUT/$name.csv; }
for r in 1 2; do sht sht-new-$r twiddle; sht sht-maps-$r twiddle-maps; done
.h200/cufft_bench --sht --sht-cases 1024x2048x1023,4096x8192x4095 --warmup 0.5 --out $OUT/cufft-sht.csv > $OUT/cufft-sht.log 2>&1
awk -F, '$1=="cufft"{print "cufft-sht", $2, $3, $4, $7}' $OUT/cufft-sht.csv
awk -F, '$1=="cufft"{print "cufft-r2c", $2, $5, $6}' $OUT/cufft-r2c.csv
awk -F, '$1=="cufft"{print "cufft-r2c-2", $2, $5, $6}' $OUT/cufft-r2c-2.csv
cat $OUT/gpu.txt
cd $OUT && tar czf all.tgz *.csv *.log gpu.txt && rm -f *.csv *.log
