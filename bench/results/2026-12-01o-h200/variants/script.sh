#!/usr/bin/env bash
# Variants of the 2D passes, interleaved twice in separate processes; cuFFT after.
set -u
source bench/h200-env.sh
S=512x512,1024x1024,2048x2048,4096x4096
N=512,1024
run() { # tag env... -- args
  local tag=$1; shift
  env "$@" .h200/twiddle-exp bench --n $N --shapes $S --warmup 0.5 --pass-times --out $OUT/$tag.csv > $OUT/$tag.txt 2>&1
}
for r in 1 2; do
  run A$r X=1
  run R$r TWIDDLE_EXP_REVERSE=1
  run C$r TWIDDLE_EXP_COL_R16=1
  run W$r TWIDDLE_EXP_ROW_R16=1
  run CR$r TWIDDLE_EXP_COL_R16=1 TWIDDLE_EXP_REVERSE=1
  env TWIDDLE_EXP_REVERSE=1 .h200/twiddle-exp bench --n $N --shapes $S --warmup 0.5 --pass-times --tiles 4 --out $OUT/R4$r.csv > $OUT/R4$r.txt 2>&1
done
.h200/cufft_bench --cases $N --shapes $S --out $OUT/cufft.csv > $OUT/cufft.txt 2>&1
cd $OUT && tar czf all.tgz *.csv *.txt
for f in A1 R1 C1 W1 CR1 R41 A2 R2 C2 W2 CR2 R42; do echo "== $f"; grep -E "^ +[0-9]" $f.txt | awk '{print $1, $4, $5, $NF}'; done
grep -v "^#" cufft.csv | cut -d, -f1-8 | head -20
