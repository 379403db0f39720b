#!/usr/bin/env bash
# Two passes of narrow tiles where one of them needs all of the shared memory (experiment
# switches of the planner: TW_NARROW_FULL, TW_NARROW_ASC, TW_NARROW_FIRST_HALF), against the
# default's three wide passes: c2c 2^21 and 2^22 in f32, 2^19 and 2^20 in f64. Alternated twice,
# cuFFT in the same call.
set -u
source bench/h200-env.sh
N=2097152,4194304
D=524288,1048576
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
.h200/cufft_bench --cases $N --warmup 0.5 --out $OUT/cufft.csv > $OUT/cufft.log 2>&1
.h200/cufft_bench --cases $D --z2z --warmup 0.5 --out $OUT/cufft-z2z.csv > $OUT/cufft-z2z.log 2>&1
run() {  # name, env..., -- bench args
  local name=$1; shift
  local envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  env "${envs[@]}" .h200/twiddle bench --warmup 0.5 "$@" --out $OUT/$name.csv > $OUT/$name.log 2>&1
}
for r in 1 2; do
  run default-$r X=1 -- --n $N --pass-times
  run full-$r TW_NARROW_FULL=1 -- --n $N --pass-times
  run asc-half-$r TW_NARROW_FULL=1 TW_NARROW_ASC=1 TW_NARROW_FIRST_HALF=1 -- --n 2097152 --pass-times
  run asc-full-$r TW_NARROW_FULL=1 TW_NARROW_ASC=1 -- --n 2097152 --pass-times
  run f64-default-$r X=1 -- --n $D --f64
  run f64-full-$r TW_NARROW_FULL=1 -- --n $D --f64
done
for f in cufft cufft-z2z; do grep -v "^library\|^copy" $OUT/$f.csv | cut -d, -f1-8 | sed "s/^/$f /"; done
for r in 1 2; do for b in default full asc-half asc-full f64-default f64-full; do grep -E "^ +[0-9x]+ " $OUT/$b-$r.log | awk -v t=$b-$r '{printf "%-15s %s\n", t, $0}' | cut -c1-160; done; done
cat $OUT/gpu.txt
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
