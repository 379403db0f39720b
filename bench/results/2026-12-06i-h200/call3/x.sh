#!/usr/bin/env bash
# Forty-fourth run, third call (H100): where f64 rfftn and irfftn of 2048 x 2048 go (0.82x cuFFT
# in call 2): twiddle-n's plan (info), its passes' times, and planner knobs against its default.
set -u
source bench/h200-env.sh  # also pack_out, save and run
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
.h200/twiddle-n info --shape 2048x2048 --real > $OUT/info.json 2>&1
B="bench --f64 --real --shapes 2048x2048 --warmup 0.3"
run def 30 twiddle-n $B --pass-times --out $OUT/def.csv
run defi 30 twiddle-n $B --inverse --pass-times --out $OUT/defi.csv
for k in "--columns 2" "--columns 4" "--columns 8" "--columns 16" "--tiles 1" "--tiles 2" "--workgroup 128" "--workgroup 512" "--max-radix 8" "--max-pass-length 1024" "--no-subgroup-shuffles"; do
  n=$(echo $k | tr -d ' -')
  run k-$n 25 twiddle-n $B $k --out $OUT/k-$n.csv
  run ki-$n 25 twiddle-n $B --inverse $k --out $OUT/ki-$n.csv
done
save
grep -o '"summary": "[^"]*"' $OUT/info.json | head -2
for f in def defi; do grep -v "^ *$" $OUT/$f.log | tail -2; done
for f in $OUT/k-*.csv $OUT/ki-*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f6 | tr '\n' ' ')"; done
save
