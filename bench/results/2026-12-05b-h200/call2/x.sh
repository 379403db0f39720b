#!/usr/bin/env bash
# Thirty-fourth run, second call: the one-pass cases whose ratio moved in call1 (cuFFT lower at
# 512-4096, twiddle lower at 1000 and 1536, while the GPU met its 700 W limit), one case per
# process so that times.txt brackets each case against clocks.csv (clocks, power and throttle
# reasons every 100 ms): twiddle (ff53166) and cuFFT alternated twice, e79d711 at 1000 and 1536
# once, then both with a 3 s warm-up, so that every timing falls in the power-limited state.
set -u
source bench/h200-env.sh
C="512 1024 2048 4096 8192 1000 1536"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 100 > $OUT/clocks.csv 2>&1 &
SAMPLER=$!
save() { (cd $OUT && tar czf all.tgz.new *.csv *.log times.txt 2>/dev/null; mv all.tgz.new all.tgz); }
run() {  # name, seconds, binary, args
  local name=$1 secs=$2 bin=$3; shift 3
  echo "$(date +%H:%M:%S.%N) start $name" >> $OUT/times.txt
  timeout $secs .h200/$bin "$@" > $OUT/$name.log 2>&1
  local rc=$?
  echo "$(date +%H:%M:%S.%N) end $name rc=$rc" >> $OUT/times.txt
}
for r in 1 2; do
  for n in $C; do
    run tw-$r-$n 15 twiddle bench --n $n --out $OUT/tw-$r-$n.csv
    run cu-$r-$n 15 cufft_bench --cases $n --out $OUT/cu-$r-$n.csv
  done
  save
  if [ $r = 1 ]; then for n in 1000 1536; do run old-$n 15 twiddle-e79d711 bench --n $n --out $OUT/old-$n.csv; done; fi
done
for n in $C; do
  run tw-w3-$n 20 twiddle bench --n $n --warmup 3 --out $OUT/tw-w3-$n.csv
  run cu-w3-$n 20 cufft_bench --cases $n --warmup 3 --out $OUT/cu-w3-$n.csv
done
kill $SAMPLER
save
for v in 1 2 w3; do
  line="$v"
  for n in $C; do
    t=$(grep -h "^twiddle,$n," $OUT/tw-$v-$n.csv 2>/dev/null | cut -d, -f6)
    c=$(grep -h "^cufft,$n," $OUT/cu-$v-$n.csv 2>/dev/null | cut -d, -f5)
    line="$line $n:$t/$c"
  done
  echo "$line"
done
for n in 1000 1536; do echo "old $n: $(grep -h "^twiddle,$n," $OUT/old-$n.csv | cut -d, -f6)"; done
