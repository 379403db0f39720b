#!/usr/bin/env bash
# r2c one-pass lengths with tiles per workgroup 2 and 16 against the default (4), interleaved twice.
set -u
source bench/h200-env.sh
show() { awk -F, -v t=$1 '$1=="twiddle"{printf "%s %s %s %s\n", t, $2, $6, $9}' $OUT/$1.csv; }
N="1024 2048 4096 8192"
for r in 1 2; do
  .h200/twiddle bench --real --warmup 0.5 --n $N --out $OUT/default-$r.csv > /dev/null 2>&1; show default-$r
  .h200/twiddle bench --real --warmup 0.5 --tiles 2 --n $N --out $OUT/tiles2-$r.csv > /dev/null 2>&1; show tiles2-$r
  .h200/twiddle bench --real --warmup 0.5 --tiles 16 --n $N --out $OUT/tiles16-$r.csv > /dev/null 2>&1; show tiles16-$r
done
cd $OUT && tar czf all.tgz *.csv && rm -f *.csv
