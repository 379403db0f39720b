#!/usr/bin/env bash
# Thirty-sixth run, fourth call, on the same warm H100: the multi-pass lengths 2^15 and 2^20 to
# 2^24: cuFFT, the defaults (an empty disk cache), `twiddle tune` (this call's disk cache) and
# the tuned choices, one after the other in the same call.
set -u
source bench/h200-env.sh  # also save and run
T=32768,1048576,2097152,4194304,8388608,16777216
rm -rf "$TWIDDLE_CACHE_DIR"
run cufft 60 cufft_bench --cases $T --out $OUT/cufft.csv
run default 40 twiddle-new bench --n $T --out $OUT/default.csv
run tune 150 twiddle-new tune --n $T
run tuned 40 twiddle-new bench --n $T --out $OUT/tuned.csv
python3 bench/compare.py $OUT/tuned.csv $OUT/cufft.csv > $OUT/compare-tuned.md 2>&1
python3 bench/compare.py $OUT/default.csv $OUT/cufft.csv > $OUT/compare-default.md 2>&1
(cd $OUT && tar czf all.tgz.new *.csv *.log *.md times.txt && mv all.tgz.new all.tgz && ls | grep -v '^all.tgz$' | xargs rm -f)
tar xzf $OUT/all.tgz -O times.txt | sed 's/\.[0-9]* / /'
tar xzf $OUT/all.tgz -O tune.log | grep -v '^device\|^tuning' | cut -c1-150
for f in default tuned; do echo $f; tar xzf $OUT/all.tgz -O compare-$f.md | grep "^| [0-9]" | cut -d'|' -f2,4,5,6,8; done
