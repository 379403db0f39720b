#!/usr/bin/env bash
# Prepared for the next device (2026-12-05, third session): mixed-radix kernels whose exchanges
# skew blocks of a stage's span (BankMap::skew; 1000's second exchange through a + 6 (a / 100)),
# `twiddle-skew` (this session's HEAD) against `twiddle` (ff53166), alternated twice over the
# lengths whose kernels changed (100, 1000, 10007 of the sweep; 40 to 6561 besides; r2c 200 and
# 1000) and three whose kernels did not (1536, 4095, 10^6: the control), then cuFFT on the sweep's
# lengths, and both binaries' plan times (kernel generation is part of a warm plan).
set -u
source bench/h200-env.sh
CHANGED=100,1000,10007,40,56,72,80,400,401,3125,6561,2000,5000
CONTROL=1536,4095,1000000
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 200 > $OUT/clocks.csv 2>&1 &
SAMPLER=$!
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
save() { (cd $OUT && tar czf all.tgz.new *.csv *.log times.txt gpu.txt 2>/dev/null; mv all.tgz.new all.tgz); }
run() {  # name, seconds, binary, args
  local name=$1 secs=$2 bin=$3; shift 3
  echo "$(date +%H:%M:%S.%N) start $name" >> $OUT/times.txt
  timeout $secs .h200/$bin "$@" > $OUT/$name.log 2>&1
  local rc=$?
  echo "$(date +%H:%M:%S.%N) end $name rc=$rc" >> $OUT/times.txt
  save
}
for r in 1 2; do
  run old-$r 70 twiddle bench --n $CHANGED,$CONTROL --out $OUT/old-$r.csv
  run new-$r 70 twiddle-skew bench --n $CHANGED,$CONTROL --out $OUT/new-$r.csv
  run old-r2c-$r 20 twiddle bench --real --n 200,1000 --out $OUT/old-r2c-$r.csv
  run new-r2c-$r 20 twiddle-skew bench --real --n 200,1000 --out $OUT/new-r2c-$r.csv
done
run cufft 40 cufft_bench --cases 100,1000,10007,1536,4095,1000000 --out $OUT/cufft.csv
run cufft-r2c 15 cufft_bench --cases 1000 --r2c --out $OUT/cufft-r2c.csv
run plan-old 60 twiddle bench --plan-time --n 1000,10007,1000000,1024 --out $OUT/plan-old.csv
run plan-new 60 twiddle-skew bench --plan-time --n 1000,10007,1000000,1024 --out $OUT/plan-new.csv
kill $SAMPLER
save
cat $OUT/times.txt
for f in $OUT/old-*.csv $OUT/new-*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done | cut -c1-400
for f in $OUT/cufft*.csv; do echo "$(basename $f .csv) $(grep '^cufft' $f | cut -d, -f2,5 | tr '\n' ' ')"; done | cut -c1-400
grep -h -i 'warm\|cold' $OUT/plan-*.log | head -20
