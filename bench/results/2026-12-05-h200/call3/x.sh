#!/usr/bin/env bash
# Thirty-third run, third call: does the driver's compile time (the cold plan's larger share) follow
# the kernel's shape? --plan-time and the kernels' speed under planner options that make smaller or
# simpler kernels, at 1024, 4096 and 2^20, HEAD (e79d711).
set -u
source bench/h200-env.sh
N=1024,4096,1048576
save() { (cd $OUT && tar czf all.tgz.new *.csv *.log times.txt 2>/dev/null; mv all.tgz.new all.tgz); }
run() {  # name, seconds, args
  local name=$1 secs=$2; shift 2
  echo "$(date +%H:%M:%S.%N) start $name" >> $OUT/times.txt
  timeout $secs .h200/twiddle bench "$@" > $OUT/$name.log 2>&1
  local rc=$?
  echo "$(date +%H:%M:%S.%N) end $name rc=$rc" >> $OUT/times.txt
  save
}
variant() {  # name, planner args
  local name=$1; shift
  run plan-$name 40 --plan-time --plan-reps 3 --n $N --out $OUT/plan-$name.csv "$@"
  run speed-$name 40 --n $N --out $OUT/speed-$name.csv --kernel-stats "$@"
}
variant default
variant portable --strategy portable
variant radix8 --max-radix 8
variant radix4 --max-radix 4
variant tiles1 --tiles 1
variant noshuffle --no-subgroup-shuffles
save
cat $OUT/times.txt | awk '{print $1, $2, $3, $4}' | paste - - | awk '{print $3, $1, $5, $7}'
for f in $OUT/plan-*.log; do echo "== $f"; grep -E "^ +[0-9]+ " $f | cut -c1-105; done
for f in $OUT/speed-*.log; do echo "== $f"; grep -E "^ +[0-9]+ +[0-9]+ +[0-9] " $f | cut -c1-90; done
