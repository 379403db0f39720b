#!/usr/bin/env bash
# The two-pass SHT stage chunk by chunk (TW_SHT_CHUNK latitudes, pipelined over two slots;
# TW_SHT_SERIAL=1 not pipelined), against one chunk, with the cuFFT stage in the same call.
set -u
source bench/h200-env.sh
run() { name=$1; S=$2; F=$3; shift 3; env "$@" .h200/twiddle bench --sht $S --fields $F --sht-passes two --warmup 0.5 --out $OUT/$name.csv > $OUT/$name.log 2>&1; awk -F, -v t=$name '$1=="twiddle"{printf "%-22s %s %s %s %s %s\n", t, $2, $3, $8, $9, $11}' $OUT/$name.csv; }
A=4096x8192x4095
for r in 1 2; do
  for c in 0 128 256 512 1024 4096; do run a1-c$c-$r $A 1 TW_SHT_CHUNK=$c; done
done
run a1-c256-serial $A 1 TW_SHT_CHUNK=256 TW_SHT_SERIAL=1
run a1-c512-serial $A 1 TW_SHT_CHUNK=512 TW_SHT_SERIAL=1
for c in 0 256 512 4096; do run a8-c$c $A 8 TW_SHT_CHUNK=$c; done
B=8192x16384x8191
for c in 0 64 128 256; do run b1-c$c $B 1 TW_SHT_CHUNK=$c; done
C=2048x4096x2047
for c in 0 256 512 1024; do run c1-c$c $C 1 TW_SHT_CHUNK=$c; done
for c in 0 512; do run c8-c$c $C 8 TW_SHT_CHUNK=$c; done
for f in 1 8; do
  .h200/cufft_bench --sht --sht-cases $C,$A,$B --fields $f --warmup 0.5 --out $OUT/cufft-$f.csv > $OUT/cufft-$f.log 2>&1
  awk -F, -v f=$f '$1=="cufft"{print "cufft", f, $2, $3, $4, $7}' $OUT/cufft-$f.csv
done
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
