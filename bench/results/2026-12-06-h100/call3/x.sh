#!/usr/bin/env bash
# Thirty-sixth run, third call, on the same warm H100: `twiddle tune` at the multi-pass lengths
# that lag cuFFT on this card (call2), then those lengths with the defaults and with the tuned
# choices (this call's disk cache), each in its own process.
set -u
source bench/h200-env.sh  # also save and run
T=32768,1048576,2097152,4194304
run default 40 twiddle-new bench --n $T --out $OUT/default.csv
run tune 120 twiddle-new tune --n $T
run tuned 40 twiddle-new bench --n $T --out $OUT/tuned.csv
(cd $OUT && tar czf all.tgz.new *.csv *.log times.txt && mv all.tgz.new all.tgz && ls | grep -v '^all.tgz$' | xargs rm -f)
tar xzf $OUT/all.tgz -O times.txt | sed 's/\.[0-9]* / /'
tar xzf $OUT/all.tgz -O tune.log | grep -v '^device' | cut -c1-150
for f in default tuned; do echo "$f $(tar xzf $OUT/all.tgz -O $f.csv | grep '^twiddle' | cut -d, -f2,6 | tr '\n' ' ')"; done
