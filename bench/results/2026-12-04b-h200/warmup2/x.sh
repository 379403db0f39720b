#!/usr/bin/env bash
# warmup/ again, small (that call ran past its limit in its full sweep and its files did not come
# back): the steady warm-up (twiddle, 1bbb10b) against the fixed one (twiddle-old), --warmup 0.3,
# c2c 2^16 to 2^24, alternated twice, clocks sampled every 200 ms; everything tarred after each
# process.
set -u
source bench/h200-env.sh
P=65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw --format=csv -lms 200 > /tmp/clocks.csv 2>&1 &
mkdir -p /tmp/w && cd /tmp/w
for r in 1 2; do for b in twiddle-old twiddle; do
  echo "$(date +%H:%M:%S.%N) start $b-$r" >> times.txt
  timeout 40 $OLDPWD/.h200/$b bench --n $P --warmup 0.3 --out $b-$r.csv > $b-$r.log 2>&1
  echo "$(date +%H:%M:%S.%N) end $b-$r" >> times.txt
  cp /tmp/clocks.csv . ; tar czf $OUT/all.tgz *
  grep -E "^ +[0-9]+ " $b-$r.log | awk -v t=$b-$r '{printf "%-14s %s\n", t, $0}' | cut -c1-90
done; done
