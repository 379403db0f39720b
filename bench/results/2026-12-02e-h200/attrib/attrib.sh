#!/usr/bin/env bash
# r2c: where the split's cost goes (TW_EXP switches, timing only) ; SHT: P=16 four-step vs P=32.
set -u
source bench/h200-env.sh
fft() { name=$1; shift; env ${ENVS:-X=1} .h200/twiddle-exp bench --warmup 0.5 --max-error 1e30 --out $OUT/$name.csv "$@" > $OUT/$name.log 2>&1; awk -F, -v t=$name '$1=="twiddle"{printf "%-34s %s %s %s\n", t, $2, $6, $8}' $OUT/$name.csv; }
for r in 1 2; do
  for v in none deali noshuf nosplit noscale deali,noshuf nosplit,noscale,noshuf deali,noshuf,nosplit,noscale; do
    ENVS=TW_EXP=$v fft r2c-$v-$r --real --n 2048 4096 8192
  done
  fft c2c-$r --n 1024 2048 4096
done
.h200/cufft_bench --r2c --cases 2048,4096,8192 --warmup 0.5 --out $OUT/cufft-r2c.csv > $OUT/cufft-r2c.log 2>&1
awk -F, '$1=="cufft"{print "cufft-r2c", $2, $5, $6}' $OUT/cufft-r2c.csv
sht() { name=$1; B=$2; S=$3; shift 3; .h200/$B bench --sht $S --sht-passes two --pass-times --warmup 0.5 "$@" --out $OUT/$name.csv > $OUT/$name.log 2>&1; awk -F, -v t=$name '$1=="twiddle"{printf "%-18s %s %s %s %s %s\n", t, substr($2,1,5), $3, $8, $11, $13}' $OUT/$name.csv; }
for r in 1 2; do
  for b in twiddle-exp twiddle-p16; do
    sht $b-4k-$r $b 4096x8192x4095
    sht $b-2k-$r $b 2048x4096x2047
  done
done
sht twiddle-exp-8k twiddle-exp 8192x16384x8191
sht twiddle-p16-8k twiddle-p16 8192x16384x8191
sht twiddle-p16-4k8 twiddle-p16 4096x8192x4095 --fields 8
sht twiddle-exp-4k8 twiddle-exp 4096x8192x4095 --fields 8
.h200/twiddle-exp bench --sht 4096x8192x4095 --sht-passes two --kernel-stats --warmup 0.1 > $OUT/stats-exp.log 2>&1
.h200/twiddle-p16 bench --sht 4096x8192x4095 --sht-passes two --kernel-stats --warmup 0.1 > $OUT/stats-p16.log 2>&1
grep -h "Register Count\|Local" $OUT/stats-*.log | cut -c1-200 | head -20
.h200/cufft_bench --sht --sht-cases 4096x8192x4095,2048x4096x2047,8192x16384x8191 --warmup 0.5 --out $OUT/cufft-sht.csv > $OUT/cufft-sht.log 2>&1
awk -F, '$1=="cufft"{print "cufft", $2, $3, $4, $7}' $OUT/cufft-sht.csv
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
