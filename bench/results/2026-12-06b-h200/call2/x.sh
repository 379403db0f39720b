#!/usr/bin/env bash
# Thirty-seventh run, second call: Strategy::subgroups in columns that span several subgroups
# (9309a77: one remap through shared memory and one exchange through shuffles at f32 2048-16384,
# f64 1024-4096) against the default plans, alternated twice; 1024 (f32, columns in one
# subgroup: shuffles only, measured before) as a control.
set -u
source bench/h200-env.sh  # also pack_out, save and run
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
for r in 1 2; do
  run auto-$r 25 twiddle bench --n 1024,2048,4096,8192,16384 --out $OUT/auto-$r.csv
  run sub-$r 25 twiddle bench --n 1024,2048,4096,8192,16384 --strategy subgroups --out $OUT/sub-$r.csv
  run auto-f64-$r 20 twiddle bench --f64 --n 1024,2048,4096 --out $OUT/auto-f64-$r.csv
  run sub-f64-$r 20 twiddle bench --f64 --n 1024,2048,4096 --strategy subgroups --out $OUT/sub-f64-$r.csv
done
run info 20 twiddle info --n 4096 --strategy subgroups
save
sed 's/\.[0-9]* / /' $OUT/times.txt
for f in $OUT/auto*.csv $OUT/sub*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
