#!/usr/bin/env bash
# Forty-first run, eighth call, for whatever card comes (asked as an H200): this session's three
# rules at 178e665 (twiddle-h) against 4b49683 (twiddle-tc), one round; the whole sweep of
# twiddle-h beside cuFFT (c2c, r2c, 2D, as bench/h200-sweep.sh); a second round of the A/B; the
# fortieth run's rules against their old defaults through knobs (r2c 128 and 256 at radix 16,
# c2r 2048 without shuffles). Results are saved after each step, so a cut-off call keeps the
# steps before. About 7 minutes on an H100.
set -u
source bench/h200-env.sh  # also pack_out, save and run
pack_out
ALL=8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216,100,1000,1536,4095,10007,1000000
S=256x256,512x512,1024x1024,2048x2048,4096x4096
R=256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576
RS=64x64,256x256,1024x1024,64x64x64
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 200 > $OUT/clocks.csv 2>&1 &
SAMPLER=$!
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
ab() {  # ab ROUND: one round of this session's A/B
  for b in tc h; do
    run r-$b-$1 40 twiddle-$b bench --real --n 16,32,64 --shapes $RS --warmup 0.3 --out $OUT/r-$b-$1.csv
    run i-$b-$1 40 twiddle-$b bench --real --inverse --n 64 --shapes $RS --warmup 0.3 --out $OUT/i-$b-$1.csv
  done
}
ab 1
run cufft 150 cufft_bench --cases $ALL --out $OUT/cufft.csv
run sweep 100 twiddle-h bench --n $ALL --out $OUT/sweep.csv
run cufft-r2c 70 cufft_bench --cases $R --r2c --out $OUT/cufft-r2c.csv
run sweep-r2c 50 twiddle-h bench --n $R --real --out $OUT/sweep-r2c.csv
run cufft-2d 35 cufft_bench --shapes $S --out $OUT/cufft-2d.csv
run sweep-2d 35 twiddle-h bench --shapes $S --out $OUT/sweep-2d.csv
ab 2
for r in 1 2; do
  run old40-$r 30 twiddle-h bench --real --n 128,256 --max-radix 16 --warmup 0.3 --out $OUT/old40-$r.csv
  run new40-$r 30 twiddle-h bench --real --n 128,256 --warmup 0.3 --out $OUT/new40-$r.csv
  run old40i-$r 30 twiddle-h bench --real --inverse --n 2048 --no-subgroup-shuffles --warmup 0.3 --out $OUT/old40i-$r.csv
  run new40i-$r 30 twiddle-h bench --real --inverse --n 2048 --warmup 0.3 --out $OUT/new40i-$r.csv
done
kill $SAMPLER
save
sed 's/\.[0-9]* / /' $OUT/times.txt | tail -3
cat $OUT/gpu.txt
python3 bench/compare.py $OUT/sweep.csv $OUT/cufft.csv > $OUT/compare.md 2>&1; grep "^| [0-9]" $OUT/compare.md | cut -d'|' -f2,5,6,7,8 | tr -d ' ' | paste -sd' '
python3 bench/compare.py $OUT/sweep-2d.csv $OUT/cufft-2d.csv > $OUT/compare-2d.md 2>&1; grep "^| [0-9]" $OUT/compare-2d.md | cut -d'|' -f2,5,6,7,8 | tr -d ' ' | paste -sd' '
python3 bench/compare.py $OUT/sweep-r2c.csv $OUT/cufft-r2c.csv > $OUT/compare-r2c.md 2>&1; grep "^| [0-9]" $OUT/compare-r2c.md | cut -d'|' -f2,5,6,7,8 | tr -d ' ' | paste -sd' '
for f in $OUT/[ri]-*.csv $OUT/*40*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f6 | tr '\n' ' ')"; done
save
