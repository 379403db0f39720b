#!/usr/bin/env bash
# SHT analysis m-major: split reads in slot order (default) against k2 order (TW_NOSLOT=1).
set -u
source bench/h200-env.sh
sht() { name=$1; S=$2; F=$3; shift 3; env "$@" .h200/twiddle-exp bench --sht $S --fields $F --sht-passes two --pass-times --warmup 0.5 --out $OUT/$name.csv > $OUT/$name.log 2>&1; awk -F, -v t=$name '$1=="twiddle"{printf "%-14s %s %s %s %s %s\n", t, substr($2,1,5), $3, $8, $11, $13}' $OUT/$name.csv; }
for r in 1 2 3; do
  sht slot-4k-$r 4096x8192x4095 1 X=1
  sht k2-4k-$r 4096x8192x4095 1 TW_NOSLOT=1
done
sht slot-4k-f8 4096x8192x4095 8 X=1
sht k2-4k-f8 4096x8192x4095 8 TW_NOSLOT=1
sht slot-8k 8192x16384x8191 1 X=1
sht k2-8k 8192x16384x8191 1 TW_NOSLOT=1
.h200/cufft_bench --sht --sht-cases 4096x8192x4095,8192x16384x8191 --warmup 0.5 --out $OUT/cufft-sht.csv > $OUT/cufft-sht.log 2>&1
awk -F, '$1=="cufft"{print "cufft", $2, $3, $4, $7}' $OUT/cufft-sht.csv
.h200/cufft_bench --sht --sht-cases 4096x8192x4095 --fields 8 --warmup 0.5 --out $OUT/cufft-sht8.csv > $OUT/cufft-sht8.log 2>&1
awk -F, '$1=="cufft"{print "cufft8", $2, $3, $4, $7}' $OUT/cufft-sht8.csv
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
