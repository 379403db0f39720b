#!/usr/bin/env bash
# Thirty-fourth run, first call: the short-workgroup planner change (ff53166, `twiddle`) against
# e79d711 (`twiddle-e79d711`) at c2c 8-256, alternated twice, then cuFFT's whole sweep (c2c, 2D,
# R2C) and twiddle's at ff53166, all in one call; cuFFT's bench with its error now computed on the
# device, checked against the old host-side one (`cufft_bench-old`) on three cases of each kind.
# Everything is tarred after each step.
set -u
source bench/h200-env.sh
SHORT=8,16,32,64,128,256
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
  local rc=$?
  echo "$(date +%H:%M:%S.%N) end $name rc=$rc" >> $OUT/times.txt
  save
}
for r in 1 2; do
  run short-old-$r 25 twiddle-e79d711 bench --n $SHORT --out $OUT/short-old-$r.csv
  run short-new-$r 25 twiddle bench --n $SHORT --out $OUT/short-new-$r.csv
done
run cufft-oldcheck 40 cufft_bench-old --cases 64,1048576,1000 --out $OUT/cufft-oldcheck.csv
run cufft-r2c-oldcheck 30 cufft_bench-old --cases 4096,1048576 --r2c --out $OUT/cufft-r2c-oldcheck.csv
run cufft 150 cufft_bench --cases $ALL --out $OUT/cufft.csv
run sweep 100 twiddle bench --n $ALL --out $OUT/sweep.csv
run cufft-2d 35 cufft_bench --shapes $S --out $OUT/cufft-2d.csv
run sweep-2d 35 twiddle bench --shapes $S --out $OUT/sweep-2d.csv
run cufft-r2c 70 cufft_bench --cases $R --r2c --out $OUT/cufft-r2c.csv
run sweep-r2c 50 twiddle bench --n $R --real --out $OUT/sweep-r2c.csv
kill $SAMPLER
save
cat $OUT/times.txt
for f in $OUT/short-*.csv; do echo "$(basename $f .csv) $(grep twiddle $f | cut -d, -f2,6 | tr '\n' ' ')"; done | cut -c1-150
python3 bench/compare.py $OUT/sweep.csv $OUT/cufft.csv > $OUT/compare.md 2>&1; grep "^| [0-9]" $OUT/compare.md | cut -d'|' -f2,4,5,6,8
python3 bench/compare.py $OUT/sweep-2d.csv $OUT/cufft-2d.csv > $OUT/compare-2d.md 2>&1; grep "^| [0-9]" $OUT/compare-2d.md | cut -d'|' -f2,4,5,6,8
python3 bench/compare.py $OUT/sweep-r2c.csv $OUT/cufft-r2c.csv > $OUT/compare-r2c.md 2>&1; grep "^| [0-9]" $OUT/compare-r2c.md | cut -d'|' -f2,4,5,6,8
