#!/bin/bash
# Sweep after the multi-pass geometry change: f32 C2C (powers of two and the other lengths, 2D),
# r2c, with cuFFT in the same run; then one-pass tiles variants.
P=8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216
mkdir -p $OUT/f32 $OUT/r2c
CASES=$P,100,1000,1536,4095,10007,1000000 SHAPES=256x256,512x512,1024x1024,2048x2048,4096x4096 \
  bash bench/h200-sweep.sh $OUT/f32 > $OUT/f32/log 2>&1
REAL=1 CASES=256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576 \
  bash bench/h200-sweep.sh $OUT/r2c > $OUT/r2c/log 2>&1
source bench/h200-env.sh
for round in 1 2; do
  for v in "" "--tiles 2"; do
    echo "--- round $round one-pass $v"
    .h200/twiddle bench --warmup 0.5 --reps 30 --n 1024 2048 4096 $v 2>&1 | tail -3
  done
done > $OUT/tiles.txt 2>&1
grep "^| [0-9]" $OUT/f32/compare.md | cut -d'|' -f2,4,5,6,8
grep "^| [0-9]" $OUT/r2c/compare.md | cut -d'|' -f2,4,5,6,8
cat $OUT/tiles.txt
