#!/usr/bin/env bash
# Thirty-ninth run, third call: Options::join_through_shared_memory (`--join-through-shared-memory`)
# against the defaults in one binary, alternated twice, where the first two calls saw the exchange
# win (c2r 2048, 1000; f64 1000, 1024, 2048) and lose (512, 4096); then `twiddle tune --real
# --inverse` at 2048, 1000, 1536 and 256, which now also times the option, and those lengths with
# the tuned choices beside cuFFT and VkFFT (`--compare --inverse --real`). About 4 minutes.
set -u
source bench/h200-env.sh
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
L=2048,1000,512,4096
for r in 1 2; do
  run default-$r 40 twiddle bench --real --inverse --n $L --warmup 0.5 --out $OUT/default-$r.csv
  run shared-$r 40 twiddle bench --real --inverse --n $L --warmup 0.5 --join-through-shared-memory --out $OUT/shared-$r.csv
  run default-f64-$r 30 twiddle bench --real --inverse --f64 --n 1024,2048,1000 --out $OUT/default-f64-$r.csv
  run shared-f64-$r 30 twiddle bench --real --inverse --f64 --n 1024,2048,1000 --join-through-shared-memory --out $OUT/shared-f64-$r.csv
done
run tune 150 twiddle tune --real --inverse --n 2048,1000,1536,256
run compare 90 twiddle bench --compare --inverse --real --n 2048,1000,1536,256 --warmup 0.5 --reps 10 --out $OUT/compare.csv
save
for f in $OUT/default-*.csv $OUT/shared-*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
grep -A8 "speedup" $OUT/tune.log
grep -A6 "ratio best other" $OUT/compare.log
