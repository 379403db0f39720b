#!/usr/bin/env bash
# Forty-third run, first call, for an H100 (no H200 came): the forty-first run's rules for real
# transforms (the other dims' transforms one tile per workgroup, c2r rows of 64 at radix 8, r2c
# rows of 64 reals or fewer without looping) in f64, where they were never measured: 178e665
# (twiddle-h) against 4b49683 (twiddle-tc), forward and inverse, alternated twice; then twiddle-h
# beside cuFFT D2Z / Z2D and VkFFT (--compare). Results are saved after each step.
set -u
source bench/h200-env.sh  # also pack_out, save and run
pack_out
SH=64x64,256x256,1024x1024,64x64x64,128x128x128
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 200 > $OUT/clocks.csv 2>&1 &
SAMPLER=$!
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
for r in 1 2; do
  for b in tc h; do
    run f-$b-$r 60 twiddle-$b bench --f64 --real --shapes $SH --warmup 0.3 --out $OUT/f-$b-$r.csv
    run fi-$b-$r 60 twiddle-$b bench --f64 --real --inverse --shapes $SH --warmup 0.3 --out $OUT/fi-$b-$r.csv
  done
done
run cmp 120 twiddle-h bench --compare --f64 --real --shapes $SH --out $OUT/cmp.csv --plot $OUT/cmp
run cmpi 120 twiddle-h bench --compare --f64 --real --inverse --shapes $SH --out $OUT/cmpi.csv --plot $OUT/cmpi
kill $SAMPLER
save
sed 's/\.[0-9]* / /' $OUT/times.txt | tail -3
cat $OUT/gpu.txt
for f in $OUT/f-*.csv $OUT/fi-*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f6 | tr '\n' ' ')"; done
for f in cmp cmpi; do echo "== $f"; tail -n +1 $OUT/$f.log | grep -v "^ *$" | tail -12; done
save
