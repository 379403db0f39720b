#!/usr/bin/env bash
# Fiftieth run, second call (run inline): Bluestein's algorithm (.h200/twiddle, cdaf6d2) against
# Rader's pass first (.h200/twiddle-r0) below 1024 points in f64, at 2^25 complex128 values (at
# 2^26, the first try, Bluestein's scratch exceeded the 4 GiB storage range).
source bench/h200-env.sh >/dev/null 2>&1
L=74,148,222,296,444,592,740,999
for b in twiddle twiddle-r0; do
  timeout 60 .h200/$b bench --warmup 0.3 --f64 --total 25 --n $L --out $OUT/f64-$b.csv > $OUT/f64-$b.log 2>&1
done
for b in twiddle twiddle-r0; do echo $b; awk -F, 'NR>2{printf "%s %s %s | ", $2, $6, $8}' $OUT/f64-$b.csv; echo; done
