#!/usr/bin/env bash
# Thirty-seventh run, third call, on the H100 of calls 1-2: `twiddle tune` at the lengths the
# sweep left below cuFFT that call 1 did not tune (c2c 2^18, 2^20, 2^22; r2c 256, 1024, 65536),
# and those lengths again with the tuned choices.
set -u
source bench/h200-env.sh  # also pack_out, save and run
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
run tune 150 twiddle tune --n 262144,1048576,4194304
run tune-r2c 90 twiddle tune --real --n 256,1024,65536
run tuned 40 twiddle bench --n 262144,1048576,4194304 --out $OUT/tuned.csv
run tuned-r2c 30 twiddle bench --real --n 256,1024,65536 --out $OUT/tuned-r2c.csv
save
sed 's/\.[0-9]* / /' $OUT/times.txt
grep -hv '^tuning\|^device' $OUT/tune.log $OUT/tune-r2c.log | cut -c1-120
for f in $OUT/tuned*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
