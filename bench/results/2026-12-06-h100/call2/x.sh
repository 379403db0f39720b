#!/usr/bin/env bash
# Thirty-sixth run, second call, on the H100 the first call got: twiddle at 5d1a30e (`twiddle-new`)
# and cuFFT, one after the other, at 18 c2c lengths, so that the ratios on this card are known.
set -u
source bench/h200-env.sh  # also save and run
C=64,256,1024,2048,4096,8192,16384,32768,65536,1048576,2097152,4194304,16777216,100,1000,1536,4095,1000000
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
run cufft 90 cufft_bench --cases $C --out $OUT/cufft.csv
run sweep 80 twiddle-new bench --n $C --out $OUT/sweep.csv
save
python3 bench/compare.py $OUT/sweep.csv $OUT/cufft.csv > $OUT/compare.md 2>&1; save
(cd $OUT && tar czf all.tgz.new *.csv *.log *.md times.txt gpu.txt && mv all.tgz.new all.tgz && ls | grep -v '^all.tgz$' | xargs rm -f)
grep "^| [0-9]" /dev/null $(tar xzf $OUT/all.tgz -O compare.md > /tmp/c.md; echo /tmp/c.md) | cut -d'|' -f2,4,5,6,8
head -3 /tmp/c.md; tar xzf $OUT/all.tgz -O gpu.txt
