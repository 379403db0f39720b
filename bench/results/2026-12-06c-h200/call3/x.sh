#!/usr/bin/env bash
# Thirty-eighth run, third call (an H100 again): what makes r2c 128 and 256 faster with radix 4
# (call1: +20%): the defaults against radix 4 and 8, workgroup sizes and tiles, and the c2c of
# half the length for the split's cost; `info --real` of each plan.
set -u
source bench/h200-env.sh
pack_out
R=128,256
for v in "default" "--max-radix 4" "--max-radix 2" "--workgroup 64" "--workgroup 128" "--workgroup 512" "--tiles 1" "--tiles 2" "--max-radix 4 --workgroup 64" "--max-radix 4 --tiles 1"; do
  name=$(echo "$v" | tr -d ' -'); [ "$v" = default ] && args="" || args="$v"
  run r2c-$name 15 twiddle bench --real --n $R $args --out $OUT/r2c-$name.csv
done
run c2c-half 15 twiddle bench --n 64,128 --out $OUT/c2c-half.csv
for n in 128 256; do for v in "" "--max-radix 4"; do .h200/twiddle info --n $n --batch 262144 --real $v > $OUT/info-$n$(echo "$v" | tr -d ' -').log 2>&1; done; done
save
for f in $OUT/*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
