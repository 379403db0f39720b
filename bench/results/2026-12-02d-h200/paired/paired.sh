#!/usr/bin/env bash
# SHT two-pass stage: the synthesis m-major pass reading each pair X_k, X_{M-k} once (default)
# against twice (TW_UNPAIRED=1); the row pass under planner options; r2c 4096 at three totals.
set -u
source bench/h200-env.sh
run() { name=$1; S=$2; F=$3; shift 3; env "$@" .h200/twiddle bench --sht $S --fields $F --sht-passes two --pass-times --warmup 0.5 ${EXTRA:-} --out $OUT/$name.csv > $OUT/$name.log 2>&1; awk -F, -v t=$name '$1=="twiddle"{printf "%-18s %s %s %s %s %s\n", t, substr($2,1,5), $3, $8, $11, $13}' $OUT/$name.csv; }
A=4096x8192x4095; B=8192x16384x8191; C=2048x4096x2047
for r in 1 2; do
  run a1-paired-$r $A 1 X=1
  run a1-unpaired-$r $A 1 TW_UNPAIRED=1
done
for k in "--tiles 1" "--tiles 2" "--tiles 8" "--workgroup 512" "--workgroup 128" "--max-radix 8" "--columns 16"; do
  EXTRA="$k" run "a1${k// /}" $A 1 X=1
done
run a8-paired $A 8 X=1
run a8-unpaired $A 8 TW_UNPAIRED=1
run b1-paired $B 1 X=1
run b1-unpaired $B 1 TW_UNPAIRED=1
run c1-paired $C 1 X=1
run c1-unpaired $C 1 TW_UNPAIRED=1
for f in 1 8; do
  .h200/cufft_bench --sht --sht-cases $C,$A,$B --fields $f --warmup 0.5 --out $OUT/cufft-$f.csv > $OUT/cufft-$f.log 2>&1
  awk -F, -v f=$f '$1=="cufft"{print "cufft", f, $2, $3, $4, $7}' $OUT/cufft-$f.csv
done
for t in 25 26 27; do
  .h200/twiddle bench --real --n 2048 4096 8192 --total $t --warmup 0.5 --out $OUT/r2c-$t.csv > $OUT/r2c-$t.log 2>&1
  .h200/cufft_bench --r2c --cases 2048,4096,8192 --total $t --warmup 0.5 --out $OUT/cufft-r2c-$t.csv > $OUT/cufft-r2c-$t.log 2>&1
  awk -F, -v t=$t '$1=="twiddle"{print "r2c total", t, $1, $2, $6, $8}' $OUT/r2c-$t.csv
  awk -F, -v t=$t '$1=="cufft"{print "r2c total", t, $1, $2, $5, $6}' $OUT/cufft-r2c-$t.csv
done
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
