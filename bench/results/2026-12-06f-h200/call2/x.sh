#!/usr/bin/env bash
# Forty-first run, second call: c2r 16384 and 32768 looping over tiles without the stage twiddles
# held in registers (twiddle-x: HEAD with the experiment switch TW_EXP_NO_HELD_JOIN), against
# looping with them and the default (no looping); registers from --kernel-stats; short c2r rows
# at radix 4, 8 and 16 (c2r 32, 64, 128) and r2c 64 with one tile. About 3 minutes.
set -u
source bench/h200-env.sh  # also pack_out, save and run
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
B=twiddle-x
v() {  # v NAME ARGS...: one variant
  local name=$1; shift
  run $name 40 $B bench --warmup 0.3 --out $OUT/$name.csv "$@"
}
for r in 1 2; do
  v inv-def-$r --real --inverse --n 16384,32768
  for t in 2 4 8; do (export TW_EXP_NO_HELD_JOIN=1; v inv-nh-t$t-$r --real --inverse --n 16384,32768 --tiles $t); done
done
v inv-t8 --real --inverse --n 16384,32768 --tiles 8
(export TW_EXP_NO_HELD_JOIN=1; v inv-nh-r16t4 --real --inverse --n 16384,32768 --max-radix 16 --tiles 4)
run stats-def 40 $B bench --real --inverse --n 16384,32768 --reps 5 --warmup 0.1 --kernel-stats
run stats-t8 40 $B bench --real --inverse --n 16384,32768 --reps 5 --warmup 0.1 --kernel-stats --tiles 8
(export TW_EXP_NO_HELD_JOIN=1; run stats-nh-t8 40 $B bench --real --inverse --n 16384,32768 --reps 5 --warmup 0.1 --kernel-stats --tiles 8)
run stats-r2c 40 $B bench --real --n 16384,32768 --reps 5 --warmup 0.1 --kernel-stats
for r in 1 2; do
  v s-def-$r --real --inverse --n 32,64,128
  for k in 4 8 16; do v s-r$k-$r --real --inverse --n 32,64,128 --max-radix $k; done
  v s-r8t1-$r --real --inverse --n 32,64,128 --max-radix 8 --tiles 1
  v sf-def-$r --real --n 32,64
  v sf-t1-$r --real --n 32,64 --tiles 1
done
save
sed 's/\.[0-9]* / /' $OUT/times.txt | tail -2
for f in $OUT/*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
grep -i "regist\|spill" $OUT/stats-*.log | cut -c1-200 | head -24
