#!/usr/bin/env bash
# Fortieth run, sixth call: c2r 2048 at 16 points per invocation (the tuner's max_radix=16 in
# call 5, 1.025x over the shuffles' kernel), not looping and looping (--tiles 4, then with
# shuffles), against the default (twiddle-jl) and 35b9564 (twiddle); r2c 2048 likewise.
# Alternated twice. About 2 minutes.
set -u
source bench/h200-env.sh
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
for r in 1 2; do
  run old-$r 30 twiddle bench --real --inverse --n 2048 --warmup 0.3 --out $OUT/old-$r.csv
  run jl-$r 30 twiddle-jl bench --real --inverse --n 2048 --warmup 0.3 --out $OUT/jl-$r.csv
  run r16-$r 30 twiddle-jl bench --real --inverse --n 2048 --max-radix 16 --warmup 0.3 --out $OUT/r16-$r.csv
  run r16t4-$r 30 twiddle-jl bench --real --inverse --n 2048 --max-radix 16 --tiles 4 --warmup 0.3 --out $OUT/r16t4-$r.csv
  run r16t4old-$r 30 twiddle bench --real --inverse --n 2048 --max-radix 16 --tiles 4 --warmup 0.3 --out $OUT/r16t4old-$r.csv
  run fwd-$r 30 twiddle-jl bench --real --n 2048 --warmup 0.3 --out $OUT/fwd-$r.csv
  run fwdr16-$r 30 twiddle-jl bench --real --n 2048 --max-radix 16 --warmup 0.3 --out $OUT/fwdr16-$r.csv
  run fwdr16t1-$r 30 twiddle-jl bench --real --n 2048 --max-radix 16 --tiles 1 --warmup 0.3 --out $OUT/fwdr16t1-$r.csv
done
save
for f in $OUT/*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
