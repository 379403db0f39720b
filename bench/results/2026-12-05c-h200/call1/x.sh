#!/usr/bin/env bash
# Thirty-sixth run, first call (prepared, not run: no machine started in this session after the
# thirty-fifth run's calls, and the device time went on the tries). An A/B first: `twiddle-new`
# (5d1a30e: exchanges of unknown words take no map in kernels of mixed radices, so that Rader's
# gathers and the split's mirrored reads compute no pad()) against `twiddle-maps` (683d33a),
# alternated twice at the lengths whose kernels differ (c2c 101, 401; r2c 100, 200, 1000) and
# controls (c2c 100, 1000, 40, 56, 1536; r2c 4096). Then less shared memory per workgroup
# (`--shared`: one component per exchange round, more workgroups per multiprocessor) at 1000,
# 100, 40, 56 and 1536. About 130 s; call2 has the whole sweep with cuFFT and the tuner.
set -u
source bench/h200-env.sh  # also pack_out, save and run
pack_out
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 200 > $OUT/clocks.csv 2>&1 &
SAMPLER=$!
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
for r in 1 2; do
  run ab-old-$r 20 twiddle-maps bench --n 101,401,100,1000,40,56,1536 --out $OUT/ab-old-$r.csv
  run ab-new-$r 20 twiddle-new bench --n 101,401,100,1000,40,56,1536 --out $OUT/ab-new-$r.csv
  run ab-old-r2c-$r 20 twiddle-maps bench --real --n 100,200,1000,4096 --out $OUT/ab-old-r2c-$r.csv
  run ab-new-r2c-$r 20 twiddle-new bench --real --n 100,200,1000,4096 --out $OUT/ab-new-r2c-$r.csv
done
run shared4500 15 twiddle-maps bench --n 1000,100,40,56 --shared 4500 --out $OUT/shared4500.csv
run shared8000 15 twiddle-maps bench --n 1000,40,56,1536 --shared 8000 --out $OUT/shared8000.csv
kill $SAMPLER
save
cat $OUT/times.txt | sed 's/\.[0-9]* / /'
for f in $OUT/ab-*.csv $OUT/shared*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
save
save
