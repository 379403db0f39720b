#!/usr/bin/env bash
# Multi-pass kernels that exchange half of a component's points at a time (exchange_rounds 4),
# so that a tile takes half the shared memory: experiment switches TW_MP_HALVES (allowed where
# two rounds do not fit) and TW_NO_LAST_FULL (the last of two narrow passes keeps half of the
# shared memory). Against the default, cuFFT in the same call.
set -u
source bench/h200-env.sh
N=65536,262144,524288,1048576,2097152,4194304,8388608,16777216
S=1024x1024,2048x2048,4096x4096
R=1048576,2097152
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
.h200/cufft_bench --cases $N --warmup 0.5 --out $OUT/cufft.csv > $OUT/cufft.log 2>&1
.h200/cufft_bench --shapes $S --warmup 0.5 --out $OUT/cufft-2d.csv > $OUT/cufft-2d.log 2>&1
.h200/cufft_bench --cases $R --r2c --warmup 0.5 --out $OUT/cufft-r2c.csv > $OUT/cufft-r2c.log 2>&1
run() {  # name, env..., -- bench args
  local name=$1; shift
  local envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  env "${envs[@]}" timeout 90 .h200/twiddle bench --warmup 0.3 "$@" --out $OUT/$name.csv > $OUT/$name.log 2>&1
}
for r in 1 2; do
  run c2c-default-$r X=1 -- --n $N --pass-times
  run c2c-halves-$r TW_MP_HALVES=1 -- --n $N --pass-times --kernel-stats
  run c2c-halves-nolast-$r TW_MP_HALVES=1 TW_NO_LAST_FULL=1 -- --n 1048576,2097152,4194304 --pass-times
done
run 2d-default X=1 -- --shapes $S --pass-times
run 2d-halves TW_MP_HALVES=1 -- --shapes $S --pass-times --kernel-stats
run 2d-halves-c4 TW_MP_HALVES=1 -- --shapes $S --columns 4 --pass-times
run r2c-default X=1 -- --n $R --real
run r2c-halves TW_MP_HALVES=1 -- --n $R --real
for f in cufft cufft-2d cufft-r2c; do grep -v "^library\|^copy" $OUT/$f.csv | cut -d, -f1-5 | sed "s/^/$f /"; done
for b in c2c-default-1 c2c-halves-1 c2c-halves-nolast-1 c2c-default-2 c2c-halves-2 c2c-halves-nolast-2 2d-default 2d-halves 2d-halves-c4 r2c-default r2c-halves; do grep -E "^ +[0-9x]+ " $OUT/$b.log | awk -v t=$b '{printf "%-20s %s\n", t, $0}' | cut -c1-150; done
cat $OUT/gpu.txt
cd $OUT && tar czf all.tgz *.csv *.log && rm -f *.csv *.log
