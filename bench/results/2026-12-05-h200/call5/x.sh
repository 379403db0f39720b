#!/usr/bin/env bash
# Thirty-third run, fifth call: `twiddle bench --compare` at HEAD (e79d711), 2D c2c and r2c cases,
# with their charts; --warmup 0.5 --reps 10 as in the fourth call.
set -u
source bench/h200-env.sh
echo "$(date +%H:%M:%S) start" > $OUT/times.txt
timeout 200 .h200/twiddle bench --compare --shapes 256x256,512x512,1024x1024,2048x2048,4096x4096 --warmup 0.5 --reps 10 --out $OUT/compare-2d.csv > $OUT/compare-2d.log 2>&1
echo "$(date +%H:%M:%S) end 2d rc=$?" >> $OUT/times.txt
(cd $OUT && tar czf all.tgz *.csv *.log *.svg *.png times.txt 2>/dev/null)
timeout 250 .h200/twiddle bench --compare --real --n 256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576 --warmup 0.5 --reps 10 --out $OUT/compare-r2c.csv > $OUT/compare-r2c.log 2>&1
echo "$(date +%H:%M:%S) end r2c rc=$?" >> $OUT/times.txt
(cd $OUT && tar czf all.tgz *.csv *.log *.svg *.png times.txt 2>/dev/null)
cat $OUT/times.txt; grep -E "^ +[0-9x]+ " $OUT/compare-2d.log $OUT/compare-r2c.log | cut -c1-170
