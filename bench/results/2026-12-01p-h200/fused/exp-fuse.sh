#!/usr/bin/env bash
# Branch exp-fused: both passes of two-pass plans in one dispatch (TWIDDLE_EXP_FUSE=D: pass 1
# trails pass 0 by D transforms in the ticket order); cuFFT first.
set -u
source bench/h200-env.sh
S=512x512,1024x1024,2048x2048
N=65536,262144,1048576
T0=$(date +%s)
show() { awk -F, -v t=$1 -v e=$(( $(date +%s) - T0 )) '$1=="twiddle"{printf "%s %s %s %s %ss\n", t, $10, $5, $9, e}' $OUT/$1.csv; }
.h200/cufft_bench --cases $N --shapes $S --out $OUT/cufft.csv > /dev/null 2>&1
awk -F, '$1=="cufft"{print "cufft", $7, $4}' $OUT/cufft.csv
run() { # name env... 
  local name=$1; shift
  [ $(( $(date +%s) - T0 )) -gt 500 ] && return
  env "$@" timeout 100 .h200/twiddle-fuse bench --n $N --shapes $S --warmup 0.3 --out $OUT/$name.csv > /dev/null 2>$OUT/$name.err
  show $name; grep -a "fused: [a-z]\|error" $OUT/$name.err | sort | uniq -c | head -3
  env "$@" timeout 60 .h200/twiddle-fuse bench --shapes 1024x1024 --columns 4 --warmup 0.3 --out $OUT/$name-c4.csv > /dev/null 2>>$OUT/$name.err
  show $name-c4
}
for r in 1 2; do
  run base-$r X=1
  for d in 1 2 4 16; do run f$d-$r TWIDDLE_EXP_FUSE=$d; done
done
cd $OUT && tar czf all.tgz *.csv *.err && rm -f *.csv *.err
