#!/usr/bin/env bash
# Thirty-eighth run, sixth call (prepared for an H200, not run: no device time was left): this
# session's H100 measurements on the H200 in one call. The join changes (0ab92fc's looping rule,
# 92b35f3's join in the first of several passes) against f3832d0, alternated twice at c2r 16384,
# 65536 to 2^20 and f64 c2r 8192; r2c 128 to 1024 at radix 4 and 8 against the defaults; then
# `--compare --inverse --real` over c2r 256 to 2^20 and `--compare --inverse` at seven c2c lengths.
# Binaries: `twiddle` at 694c580 or later, `twiddle-f3832d0`. About 5 minutes.
set -u
source bench/h200-env.sh
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
L=16384,65536,131072,262144,524288,1048576,32768
for r in 1 2; do
  run old-$r 30 twiddle-f3832d0 bench --real --inverse --n $L --warmup 0.5 --out $OUT/old-$r.csv
  run new-$r 30 twiddle bench --real --inverse --n $L --warmup 0.5 --out $OUT/new-$r.csv
  run old-f64-$r 15 twiddle-f3832d0 bench --real --inverse --f64 --n 8192 --out $OUT/old-f64-$r.csv
  run new-f64-$r 15 twiddle bench --real --inverse --f64 --n 8192 --out $OUT/new-f64-$r.csv
  for v in 4 8; do
    run r2c-radix$v-$r 15 twiddle bench --real --n 128,256,512,1024 --max-radix $v --out $OUT/r2c-radix$v-$r.csv
  done
  run r2c-default-$r 15 twiddle bench --real --n 128,256,512,1024 --out $OUT/r2c-default-$r.csv
done
run c2r 200 twiddle bench --compare --inverse --real --warmup 0.5 --reps 10 --out $OUT/c2r.csv
run c2c-inverse 120 twiddle bench --compare --inverse --n 64,1024,4096,8192,65536,1048576,1000 --warmup 0.5 --reps 10 --out $OUT/c2c-inverse.csv
save
for f in $OUT/old-*.csv $OUT/new-*.csv $OUT/r2c-*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
for f in c2r c2c-inverse; do grep -A16 "ratio best other" $OUT/$f.log | grep -v "^chart"; done
