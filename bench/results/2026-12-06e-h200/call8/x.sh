#!/usr/bin/env bash
# Fortieth run, eighth call: the tuner's second round (twiddle-tc: the fastest knob combined with
# each of the next three that beat the defaults) at the lengths where one knob helped on the H100
# (r2c 512 to 2048, c2r 2048, c2c 32768, 2^18, 2^20, 2^21, 1536); then the defaults and the tuned
# choices (from this call's disk cache; the defaults from an empty one) in one process each,
# alternated twice. About 5 minutes.
set -u
source bench/h200-env.sh
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
run tune-r2c 150 twiddle-tc tune --real --n 512,1024,2048
run tune-c2r 60 twiddle-tc tune --real --inverse --n 2048
run tune-c2c 200 twiddle-tc tune --n 1536,32768,262144,1048576,2097152
for r in 1 2; do
  (export TWIDDLE_CACHE_DIR=/tmp/untuned; run def-$r 60 twiddle-tc bench --n 1536,32768,262144,1048576,2097152 --warmup 0.3 --out $OUT/def-$r.csv)
  run tuned-$r 60 twiddle-tc bench --n 1536,32768,262144,1048576,2097152 --warmup 0.3 --out $OUT/tuned-$r.csv
  (export TWIDDLE_CACHE_DIR=/tmp/untuned; run defr-$r 40 twiddle-tc bench --real --n 512,1024,2048 --warmup 0.3 --out $OUT/defr-$r.csv)
  run tunedr-$r 40 twiddle-tc bench --real --n 512,1024,2048 --warmup 0.3 --out $OUT/tunedr-$r.csv
done
save
grep -hv '^tuning\|^device' $OUT/tune-r2c.log $OUT/tune-c2r.log $OUT/tune-c2c.log | cut -c1-140
for f in $OUT/def*.csv $OUT/tuned*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
