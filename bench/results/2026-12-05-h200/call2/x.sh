#!/usr/bin/env bash
# Thirty-third run, second call: the cuFFT cases the first call's 60 s limit cut off (c2c from
# 32768 and the other lengths, R2C 2^20), then twiddle's 2D and r2c sweeps at HEAD (e79d711).
set -u
source bench/h200-env.sh
C=32768,65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216,100,1000,1536,4095,10007,1000000
S=256x256,512x512,1024x1024,2048x2048,4096x4096
R=256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 200 > $OUT/clocks.csv 2>&1 &
SAMPLER=$!
save() { (cd $OUT && tar czf all.tgz.new *.csv *.log times.txt 2>/dev/null; mv all.tgz.new all.tgz); }
run() {  # name, seconds, binary, args
  local name=$1 secs=$2 bin=$3; shift 3
  echo "$(date +%H:%M:%S.%N) start $name" >> $OUT/times.txt
  timeout $secs .h200/$bin "$@" > $OUT/$name.log 2>&1
  local rc=$?
  echo "$(date +%H:%M:%S.%N) end $name rc=$rc" >> $OUT/times.txt
  save
}
run cufft-rest 170 cufft_bench --cases $C --out $OUT/cufft-rest.csv
run cufft-r2c-1m 40 cufft_bench --cases 1048576 --r2c --out $OUT/cufft-r2c-1m.csv
run sweep-2d 110 twiddle bench --shapes $S --out $OUT/sweep-2d.csv
run sweep-r2c 140 twiddle bench --n $R --real --out $OUT/sweep-r2c.csv
kill $SAMPLER
save
cat $OUT/times.txt
grep -hE "^ +[0-9x]+ " $OUT/cufft-rest.log $OUT/cufft-r2c-1m.log $OUT/sweep-2d.log $OUT/sweep-r2c.log | cut -c1-100
