#!/usr/bin/env bash
# (1) Kernel statistics and r2c 2^8-2^20: the split's lane fallback through lane_xor (.h200/twiddle),
# as the split_store path (twiddle-old), and none (twiddle-old, TW_TRUST_LANES=1); (2) the SHT m-major pass's run bytes (TW_SYN_RUN, TW_ANA_RUN) now that each
# invocation takes a mirror pair; (3) one pass against two at 1024 x 2048 and 2048 x 4096; (4) the
# stage by default at 1 and 8 fields, the cuFFT stage in the same call.
set -u
source bench/h200-env.sh
R="256 512 1024 2048 4096 8192 16384 32768 65536 131072 262144 524288 1048576"
.h200/twiddle bench --real --n 4096 8192 16384 --kernel-stats --warmup 0.1 > $OUT/stats-default.log 2>&1
TW_TRUST_LANES=1 .h200/twiddle-old bench --real --n 4096 8192 16384 --kernel-stats --warmup 0.1 > $OUT/stats-trust.log 2>&1
grep -vE "^ *[0-9]|copy|device|N  *batch" $OUT/stats-default.log | head -30; echo ---; grep -vE "^ *[0-9]|copy|device|N  *batch" $OUT/stats-trust.log | head -30
fft() { name=$1; shift; env ${ENVS:-X=1} ${BIN:-.h200/twiddle} bench --warmup 0.5 --out $OUT/$name.csv "$@" > $OUT/$name.log 2>&1; awk -F, -v t=$name '$1=="twiddle"{printf "%-16s %s %s %s\n", t, $2, $6, $8}' $OUT/$name.csv; }
fft r2c-new --real --n $R
BIN=.h200/twiddle-old fft r2c-old --real --n $R
BIN=.h200/twiddle-old ENVS=TW_TRUST_LANES=1 fft r2c-trust --real --n $R
.h200/cufft_bench --r2c --cases ${R// /,} --warmup 0.5 --out $OUT/cufft-r2c.csv > $OUT/cufft-r2c.log 2>&1
awk -F, '$1=="cufft"{print "cufft-r2c", $2, $5, $6}' $OUT/cufft-r2c.csv
sht() { name=$1; S=$2; F=$3; P=$4; shift 4; env "$@" .h200/twiddle bench --sht $S --fields $F --sht-passes $P --pass-times --warmup 0.5 --out $OUT/$name.csv > $OUT/$name.log 2>&1; awk -F, -v t=$name '$1=="twiddle"{printf "%-18s %s %s %s %s %s %s\n", t, substr($2,1,5), $3, $7, $8, $11, $13}' $OUT/$name.csv; }
A=4096x8192x4095
for r in 1 2; do
  for b in 64 128 256; do sht a1-run$b-$r $A 1 two TW_SYN_RUN=$b TW_ANA_RUN=$b; done
done
for p in one two; do sht small-$p 1024x2048x1023,2048x4096x2047 1 $p X=1; done
for f in 1 8; do
  sht final-$f 1024x2048x1023,2048x4096x2047,$A,8192x16384x8191 $f auto X=1
  .h200/cufft_bench --sht --sht-cases 1024x2048x1023,2048x4096x2047,$A,8192x16384x8191 --fields $f --warmup 0.5 --out $OUT/cufft-sht-$f.csv > $OUT/cufft-sht-$f.log 2>&1
  awk -F, -v f=$f '$1=="cufft"{print "cufft", f, $2, $3, $4, $7}' $OUT/cufft-sht-$f.csv
done
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
