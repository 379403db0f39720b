#!/usr/bin/env bash
# Thirty-third run, first call: --plan-time at HEAD (e79d711) against the binary before d606a91's
# compile change (twiddle-trace), the steady warm-up (twiddle) against the fixed one (twiddle-old)
# at --warmup 0.3 over c2c 2^16-2^24 with the GPU's clocks sampled, then cuFFT's sweep and
# twiddle's c2c sweep at the default warm-up. Everything is tarred after each step.
set -u
source bench/h200-env.sh
P=65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216
ALL=8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216,100,1000,1536,4095,10007,1000000
S=256x256,512x512,1024x1024,2048x2048,4096x4096
R=256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 200 > $OUT/clocks.csv 2>&1 &
SAMPLER=$!
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
save() { (cd $OUT && tar czf all.tgz.new *.csv *.log times.txt gpu.txt 2>/dev/null; mv all.tgz.new all.tgz); }
run() {  # name, seconds, binary, args
  local name=$1 secs=$2 bin=$3; shift 3
  echo "$(date +%H:%M:%S.%N) start $name" >> $OUT/times.txt
  timeout $secs .h200/$bin "$@" > $OUT/$name.log 2>&1
  echo "$(date +%H:%M:%S.%N) end $name rc=$?" >> $OUT/times.txt
  save
}
rm -rf /tmp/twiddle-cache
run plan-new 60 twiddle bench --plan-time --out $OUT/plan-new.csv
rm -rf /tmp/twiddle-cache
run plan-trace 60 twiddle-trace bench --plan-time --out $OUT/plan-trace.csv
run old 110 twiddle-old bench --n $P --warmup 0.3 --out $OUT/old.csv
run new 110 twiddle bench --n $P --warmup 0.3 --out $OUT/new.csv
run cufft 60 cufft_bench --cases $ALL --out $OUT/cufft.csv
run cufft-2d 40 cufft_bench --shapes $S --out $OUT/cufft-2d.csv
run cufft-r2c 40 cufft_bench --cases $R --r2c --out $OUT/cufft-r2c.csv
run sweep 170 twiddle bench --n $ALL --out $OUT/sweep.csv
kill $SAMPLER
save
cat $OUT/times.txt
grep -E "^ *[0-9]+ " $OUT/plan-new.log $OUT/plan-trace.log | cut -c1-120
for b in old new; do grep -E "^ +[0-9x]+ " $OUT/$b.log | awk -v t=$b '{printf "%-4s %s\n", t, $0}' | cut -c1-90; done
python3 bench/compare.py $OUT/sweep.csv $OUT/cufft.csv > $OUT/compare.md 2>&1; grep "^| [0-9]" $OUT/compare.md | cut -d'|' -f2,4,5,6,8
