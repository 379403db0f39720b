#!/usr/bin/env bash
# r2c and c2c with the shaders' lane check and fallback paths (default) against without them
# (TW_TRUST_LANES=1); the SHT two-pass stage paired (both directions) against not (TW_UNPAIRED=1).
set -u
source bench/h200-env.sh
fft() { name=$1; shift; env ${ENVS:-X=1} .h200/twiddle bench --warmup 0.5 --out $OUT/$name.csv "$@" > $OUT/$name.log 2>&1; awk -F, -v t=$name '$1=="twiddle"{printf "%-16s %s %s %s\n", t, $2, $6, $8}' $OUT/$name.csv; }
for r in 1 2; do
  fft r2c-default-$r --real --n 2048 4096 8192 16384
  ENVS=TW_TRUST_LANES=1 fft r2c-trust-$r --real --n 2048 4096 8192 16384
  fft c2c-default-$r --n 64 256 512 1024 2048 4096
  ENVS=TW_TRUST_LANES=1 fft c2c-trust-$r --n 64 256 512 1024 2048 4096
done
.h200/cufft_bench --r2c --cases 2048,4096,8192,16384 --warmup 0.5 --out $OUT/cufft-r2c.csv > $OUT/cufft-r2c.log 2>&1
awk -F, '$1=="cufft"{print "cufft-r2c", $2, $5, $6}' $OUT/cufft-r2c.csv
.h200/cufft_bench --cases 64,256,512,1024,2048,4096 --warmup 0.5 --out $OUT/cufft-c2c.csv > $OUT/cufft-c2c.log 2>&1
awk -F, '$1=="cufft"{print "cufft-c2c", $2, $5, $6}' $OUT/cufft-c2c.csv
sht() { name=$1; S=$2; F=$3; shift 3; env "$@" .h200/twiddle bench --sht $S --fields $F --sht-passes two --pass-times --warmup 0.5 --out $OUT/$name.csv > $OUT/$name.log 2>&1; awk -F, -v t=$name '$1=="twiddle"{printf "%-18s %s %s %s %s %s\n", t, substr($2,1,5), $3, $8, $11, $13}' $OUT/$name.csv; }
A=4096x8192x4095
for r in 1 2; do
  sht a1-paired-$r $A 1 X=1
  sht a1-unpaired-$r $A 1 TW_UNPAIRED=1
done
sht a8-paired $A 8 X=1
sht a8-unpaired $A 8 TW_UNPAIRED=1
sht b1-paired 8192x16384x8191 1 X=1
.h200/cufft_bench --sht --sht-cases $A,8192x16384x8191 --warmup 0.5 --out $OUT/cufft-sht.csv > $OUT/cufft-sht.log 2>&1
awk -F, '$1=="cufft"{print "cufft", $2, $3, $4, $7}' $OUT/cufft-sht.csv
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
