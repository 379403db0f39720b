#!/usr/bin/env bash
# Issue 3's cases with equal warm-ups on both sides (cufft_bench --warmup, twiddle bench --warmup),
# 2D interleaved three times; the in-process comparison; pass times; a radix-16 variant.
set -u
source bench/h200-env.sh
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 ))s; }
show() { awk -F, -v t=$1 '$1=="twiddle"{printf "%s %s %s %s %s %s\n", t, ($10==""?$2:$10), $5, $6, $9, $11}' $OUT/$1.csv; }
showc() { awk -F, -v t=$1 '$1=="cufft"{print t, ($7==""?$2:$7), $4, $5}' $OUT/$1.csv; }
S2="512x512 1024x1024"
for r in 1 2 3; do
  .h200/cufft_bench --warmup 0.5 --shapes ${S2// /,} --out $OUT/cufft-a$r.csv > /dev/null 2>&1; showc cufft-a$r
  .h200/twiddle bench --warmup 0.5 --shapes $S2 --out $OUT/twiddle-a$r.csv > /dev/null 2>&1; show twiddle-a$r
done; el
.h200/cufft_bench --warmup 1 --shapes ${S2// /,} --out $OUT/cufft-w1.csv > /dev/null 2>&1; showc cufft-w1
.h200/twiddle bench --warmup 1 --shapes $S2 --out $OUT/twiddle-w1.csv > /dev/null 2>&1; show twiddle-w1
.h200/twiddle bench --warmup 0.5 --max-radix 16 --shapes $S2 --out $OUT/twiddle-r16.csv > /dev/null 2>&1; show twiddle-r16
.h200/twiddle bench --warmup 0.5 --pass-times --shapes $S2 --out $OUT/twiddle-pt.csv > /dev/null 2>&1; show twiddle-pt
el
timeout 150 .h200/twiddle bench --compare --warmup 0.5 --reps 20 --shapes $S2 --out $OUT/compare.csv > $OUT/compare.log 2>&1
awk -F, 'NR>1{print "compare", $1, $3, $7, $8, $11}' $OUT/compare.csv; el
C="100,1000,1536,4095,10007,1000000"; S="256x256,512x512,1024x1024,2048x2048,4096x4096,256x256x256"
.h200/cufft_bench --warmup 0.5 --cases $C --shapes $S --out $OUT/cufft-all.csv > /dev/null 2>&1; showc cufft-all
timeout 200 .h200/twiddle bench --warmup 0.5 --n ${C//,/ } --shapes ${S//,/ } --out $OUT/twiddle-all.csv > /dev/null 2>&1; show twiddle-all
el
.h200/cufft_bench --z2z --warmup 0.5 --cases 1024,1048576 --out $OUT/cufft-z2z.csv > /dev/null 2>&1; showc cufft-z2z
.h200/twiddle bench --f64 --warmup 0.5 --n 1024 1048576 --out $OUT/twiddle-f64.csv > /dev/null 2>&1; show twiddle-f64
el
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
