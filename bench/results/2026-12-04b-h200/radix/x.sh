#!/usr/bin/env bash
# Points per invocation of the passes that take all of the shared memory (experiment switches
# of the planner: TW_LAST_RADIX for the last of two narrow passes, TW_FIRST_RADIX for the first,
# TW_WIDE_RADIX for the strided pass of 2D), and --tiles for 2D. Against the default, cuFFT in the
# same call. The GPU's clocks are sampled every 200 ms throughout (clocks.csv, times.txt), for the
# slow outliers of multi-pass cases seen in some calls.
set -u
source bench/h200-env.sh
N=524288,1048576
S=1024x1024,2048x2048
R=1048576,2097152
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 200 > $OUT/clocks.csv 2>&1 &
SAMPLER=$!
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
.h200/cufft_bench --cases $N --warmup 0.5 --out $OUT/cufft.csv > $OUT/cufft.log 2>&1
.h200/cufft_bench --shapes $S --warmup 0.5 --out $OUT/cufft-2d.csv > $OUT/cufft-2d.log 2>&1
.h200/cufft_bench --cases $R --r2c --warmup 0.5 --out $OUT/cufft-r2c.csv > $OUT/cufft-r2c.log 2>&1
run() {  # name, env..., -- bench args
  local name=$1; shift
  local envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  echo "$(date +%H:%M:%S.%N) start $name" >> $OUT/times.txt
  env "${envs[@]}" timeout 90 .h200/twiddle bench --warmup 0.3 "$@" --out $OUT/$name.csv > $OUT/$name.log 2>&1
  echo "$(date +%H:%M:%S.%N) end $name" >> $OUT/times.txt
}
for r in 1 2; do
  run c2c-default-$r X=1 -- --n $N --pass-times
  run c2c-last16-$r TW_LAST_RADIX=16 -- --n $N --pass-times
  run c2c-both16-$r TW_LAST_RADIX=16 TW_FIRST_RADIX=16 -- --n $N --pass-times
done
run 2d-default X=1 -- --shapes $S --pass-times
run 2d-wide16 TW_WIDE_RADIX=16 -- --shapes $S --pass-times
run 2d-wide8 TW_WIDE_RADIX=8 -- --shapes $S --pass-times
run 2d-tiles1 X=1 -- --shapes $S --tiles 1 --pass-times
run 2d-tiles4 X=1 -- --shapes $S --tiles 4 --pass-times
run r2c-default X=1 -- --n $R --real
run r2c-last16 TW_LAST_RADIX=16 -- --n $R --real
kill $SAMPLER
for f in cufft cufft-2d cufft-r2c; do grep -v "^library\|^copy" $OUT/$f.csv | cut -d, -f1-5 | sed "s/^/$f /"; done
for b in c2c-default-1 c2c-last16-1 c2c-both16-1 c2c-default-2 c2c-last16-2 c2c-both16-2 2d-default 2d-wide16 2d-wide8 2d-tiles1 2d-tiles4 r2c-default r2c-last16; do grep -E "^ +[0-9x]+ " $OUT/$b.log | awk -v t=$b '{printf "%-14s %s\n", t, $0}' | cut -c1-150; done
cat $OUT/gpu.txt
cd $OUT && tar czf all.tgz *.csv *.log times.txt && rm -f *.log
