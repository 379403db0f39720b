#!/usr/bin/env bash
# Forty-ninth run, first call: issue 6's whole sweep (sweep_issue6) of twiddle at 2abf37a (Rader's
# pass first from 1024 points on) beside cuFFT in the same call, both timed in two rounds of 0.5 s
# warm-ups (the first H200 sweep with two rounds); then the lengths whose Bluestein transforms of
# 640 and 1280 points ran slowly in the forty-eighth run, with their neighbours, for twiddle and
# cuFFT; plan times; then, on an H200 only, `twiddle tune` at the c2c and r2c lengths below 1.0x
# cuFFT in the forty-fifth run and those lengths again with the tuner's choices.
set -u
source bench/h200-env.sh  # pack_out, save, run, sample_gpu, stop_sampling, sweep_issue6, print_issue6
pack_out
sample_gpu
sweep_issue6
w="--warmup 0.5"
B=296,592,600,640,648,768,1200,1280,1296,2400,2560,2592,3072,5120
run cufft-bs 60 cufft_bench $w --cases $B --out "$OUT/cufft-bs.csv"
run bs 60 twiddle bench $w --n $B --out "$OUT/bs.csv"
python3 bench/compare.py "$OUT/bs.csv" "$OUT/cufft-bs.csv" > "$OUT/compare-bs.md" 2>&1
run plan 60 twiddle bench --plan-time --n 1000,10007,1000000,1024,1048576 --out "$OUT/plan.csv"
if grep -q H200 $OUT/gpu.txt; then
  C=2048,4096,8192,32768
  R=2048,4096
  run tune 100 twiddle tune --n $C
  run tune-r2c 45 twiddle tune --real --n $R
  run tuned 40 twiddle bench $w --n $C --out $OUT/tuned.csv
  run tuned-r2c 25 twiddle bench $w --real --n $R --out $OUT/tuned-r2c.csv
  .h200/twiddle tune --list > $OUT/tune-list.log 2>&1
  for t in "" -r2c; do
    python3 bench/compare.py $OUT/tuned$t.csv $OUT/cufft$t.csv > $OUT/compare-tuned$t.md 2>&1
  done
fi
stop_sampling
save
cat $OUT/gpu.txt
print_issue6
grep "^| [0-9]" $OUT/compare-bs.md | cut -d'|' -f2,5,6,7,8 | tr -d ' ' | paste -sd' '
tail -7 $OUT/plan.log | cut -c1-130
for t in "" -r2c; do
  [ -f $OUT/compare-tuned$t.md ] && grep "^| [0-9]" $OUT/compare-tuned$t.md | cut -d'|' -f2,5,6,7,8 | tr -d ' ' | paste -sd' '
done
[ -f $OUT/tune-list.log ] && grep -v "^#" $OUT/tune-list.log | cut -c1-150
save
