#!/usr/bin/env bash
# Forty-fifth run, first call, for whatever card comes. On an H200: the whole sweep of twiddle
# (this session's HEAD, with the f64 rule of 0051b3e for 2048-point dims) beside cuFFT in the same call: c2c, r2c
# and 2D, as bench/h200-sweep.sh. On an H100: the 4096 x 4096 figures of the forty-fourth run's
# fourth call (rfftn 332 GB/s in f64 and 338 in f32 where c2c ran 655-971), each in several
# processes with the time of each pass, beside 2048 x 2048 and 8192 x 512 and cuFFT.
set -u
source bench/h200-env.sh  # also pack_out, save and run
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 200 > $OUT/clocks.csv 2>&1 &
SAMPLER=$!
if nvidia-smi -L | grep -q H200; then
  ALL=8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216,100,1000,1536,4095,10007,1000000
  S=256x256,512x512,1024x1024,2048x2048,4096x4096
  R=256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576
  run cufft 150 cufft_bench --cases $ALL --out $OUT/cufft.csv
  run sweep 100 twiddle bench --n $ALL --out $OUT/sweep.csv
  run cufft-r2c 70 cufft_bench --cases $R --r2c --out $OUT/cufft-r2c.csv
  run sweep-r2c 50 twiddle bench --n $R --real --out $OUT/sweep-r2c.csv
  run cufft-2d 35 cufft_bench --shapes $S --out $OUT/cufft-2d.csv
  run sweep-2d 35 twiddle bench --shapes $S --out $OUT/sweep-2d.csv
  kill $SAMPLER
  save
  cat $OUT/gpu.txt
  python3 bench/compare.py $OUT/sweep.csv $OUT/cufft.csv > $OUT/compare.md 2>&1; grep "^| [0-9]" $OUT/compare.md | cut -d'|' -f2,5,6,7,8 | tr -d ' ' | paste -sd' '
  python3 bench/compare.py $OUT/sweep-2d.csv $OUT/cufft-2d.csv > $OUT/compare-2d.md 2>&1; grep "^| [0-9]" $OUT/compare-2d.md | cut -d'|' -f2,5,6,7,8 | tr -d ' ' | paste -sd' '
  python3 bench/compare.py $OUT/sweep-r2c.csv $OUT/cufft-r2c.csv > $OUT/compare-r2c.md 2>&1; grep "^| [0-9]" $OUT/compare-r2c.md | cut -d'|' -f2,5,6,7,8 | tr -d ' ' | paste -sd' '
  save
  exit 0
fi
SH=4096x4096,2048x2048,8192x512
B="bench --shapes $SH --pass-times --warmup 0.2"
for k in 1 2 3; do run r64-$k 40 twiddle $B --f64 --real --out $OUT/r64-$k.csv; done
for k in 1 2; do
  run r32-$k 40 twiddle $B --real --out $OUT/r32-$k.csv
  run c64-$k 40 twiddle $B --f64 --out $OUT/c64-$k.csv
  run i64-$k 40 twiddle $B --f64 --real --inverse --out $OUT/i64-$k.csv
done
# Fewer columns per workgroup in the strided passes: narrower tiles of the 2049-column half spectrum.
for c in 16 8; do run r64-c$c 40 twiddle bench --shapes 4096x4096 --pass-times --warmup 0.2 --f64 --real --columns $c --out $OUT/r64-c$c.csv; done
run cufft-d2z 60 cufft_bench --z2z --r2c --shapes $SH --out $OUT/cufft-d2z.csv
run cufft-r2c 60 cufft_bench --r2c --shapes $SH --out $OUT/cufft-r2c.csv
run cufft-z2z 60 cufft_bench --z2z --shapes $SH --out $OUT/cufft-z2z.csv
kill $SAMPLER
save
cat $OUT/gpu.txt
for f in $OUT/[rci]*-[0-9].csv $OUT/r64-c*.csv $OUT/cufft-*.csv; do
  echo "$(basename $f .csv): $(grep -v '^library\|^copy' $f | awk -F, '{printf "%s %.0f [%s] | ", $10, $6, $11}')"
done
save
