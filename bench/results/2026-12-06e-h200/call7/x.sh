#!/usr/bin/env bash
# Fortieth run, seventh call, for whatever card comes (prepared for an H200): the whole sweep
# (c2c, 2D, r2c) of twiddle at 4b99081 (twiddle-jl) and cuFFT, one after the other as
# bench/h200-sweep.sh; c2r and r2c beside cuFFT and VkFFT (--compare); the fortieth run's two
# rules against 35b9564 (twiddle): r2c 128 and 256 at radix 4, c2r 2048's join through shuffles,
# alternated twice. About 6 minutes on an H100.
set -u
BIN=${BIN:-twiddle-jl}
source bench/h200-env.sh  # also pack_out, save and run
pack_out
ALL=8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216,100,1000,1536,4095,10007,1000000
S=256x256,512x512,1024x1024,2048x2048,4096x4096
R=256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 200 > $OUT/clocks.csv 2>&1 &
SAMPLER=$!
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
for r in 1 2; do
  run ab-old-$r 40 twiddle bench --real --n 128,256,1024 --warmup 0.3 --out $OUT/ab-old-$r.csv
  run ab-new-$r 40 $BIN bench --real --n 128,256,1024 --warmup 0.3 --out $OUT/ab-new-$r.csv
  run ab-inv-old-$r 40 twiddle bench --real --inverse --n 1024,2048 --warmup 0.3 --out $OUT/ab-inv-old-$r.csv
  run ab-inv-new-$r 40 $BIN bench --real --inverse --n 1024,2048 --warmup 0.3 --out $OUT/ab-inv-new-$r.csv
done
run cufft 150 cufft_bench --cases $ALL --out $OUT/cufft.csv
run sweep 100 $BIN bench --n $ALL --out $OUT/sweep.csv
run cufft-2d 35 cufft_bench --shapes $S --out $OUT/cufft-2d.csv
run sweep-2d 35 $BIN bench --shapes $S --out $OUT/sweep-2d.csv
run cufft-r2c 70 cufft_bench --cases $R --r2c --out $OUT/cufft-r2c.csv
run sweep-r2c 50 $BIN bench --n $R --real --out $OUT/sweep-r2c.csv
run cmpinv 100 $BIN bench --compare --inverse --real --n 64,256,1024,2048,4096,8192,16384,32768,65536,1048576 --warmup 0.3 --out $OUT/cmpinv.csv
kill $SAMPLER
save
sed 's/\.[0-9]* / /' $OUT/times.txt | tail -8
python3 bench/compare.py $OUT/sweep.csv $OUT/cufft.csv > $OUT/compare.md 2>&1; grep "^| [0-9]" $OUT/compare.md | cut -d'|' -f2,4,5,6,8
python3 bench/compare.py $OUT/sweep-2d.csv $OUT/cufft-2d.csv > $OUT/compare-2d.md 2>&1; grep "^| [0-9]" $OUT/compare-2d.md | cut -d'|' -f2,4,5,6,8
python3 bench/compare.py $OUT/sweep-r2c.csv $OUT/cufft-r2c.csv > $OUT/compare-r2c.md 2>&1; grep "^| [0-9]" $OUT/compare-r2c.md | cut -d'|' -f2,4,5,6,8
echo "cmpinv $(grep '^twiddle' $OUT/cmpinv.csv | cut -d, -f5,9,13,14 | tr '\n' ' ')"
for f in $OUT/ab-*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
save
