#!/usr/bin/env bash
# The two-pass SHT stage's passes timed apart, with the driver's kernel statistics.
set -u
source bench/h200-env.sh
.h200/twiddle-2p bench --sht 4096x8192x4095,1024x2048x1023 --sht-passes two --pass-times --kernel-stats --warmup 0.5 --out $OUT/two.csv > $OUT/two.log 2>&1
grep -E 'pass 0|ok' $OUT/two.log | sed -E 's/\[(Binary|Instruction|Shared|Subgroup|Workgroup)[^]]*\]//g' | cut -c1-220
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
