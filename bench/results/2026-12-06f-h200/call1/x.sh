#!/usr/bin/env bash
# Forty-first run, first call: the planner's knobs where the H100 trails most (c2r 16384 and 32768
# looping over tiles, now that a looping join takes its mirrors through shuffles; c2r and r2c 64
# and 65536; c2c 32768), each variant its own process, the defaults twice; then c2r and r2c beside
# cuFFT and VkFFT. twiddle-tc is 4b49683's library (HEAD). About 6 minutes.
set -u
source bench/h200-env.sh  # also pack_out, save and run
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
B=twiddle-tc
v() {  # v NAME ARGS...: one variant
  local name=$1; shift
  run $name 40 $B bench --warmup 0.3 --out $OUT/$name.csv "$@"
}
for r in 1 2; do v inv-def-$r --real --inverse --n 16384,32768; done
for t in 2 4 8; do v inv-t$t --real --inverse --n 16384,32768 --tiles $t; done
v inv-r16 --real --inverse --n 16384,32768 --max-radix 16
v inv-r16t4 --real --inverse --n 16384,32768 --max-radix 16 --tiles 4
v inv-r8 --real --inverse --n 16384,32768 --max-radix 8
for r in 1 2; do v big-inv-def-$r --real --inverse --n 65536; v big-fwd-def-$r --real --n 65536; done
for k in "--tiles 1" "--columns 8" "--columns 32" "--shared 49152" "--tiles 2"; do
  tag=$(echo $k | tr -d ' -'); v big-inv-$tag --real --inverse --n 65536 $k; v big-fwd-$tag --real --n 65536 $k
done
for r in 1 2; do v s-inv-def-$r --real --inverse --n 64; v s-fwd-def-$r --real --n 64; done
for k in 4 8 16; do v s-inv-r$k --real --inverse --n 64 --max-radix $k; v s-fwd-r$k --real --n 64 --max-radix $k; done
for k in "--workgroup 256" "--workgroup 64" "--tiles 1"; do
  tag=$(echo $k | tr -d ' -'); v s-inv-$tag --real --inverse --n 64 $k; v s-fwd-$tag --real --n 64 $k
done
for r in 1 2; do v c-def-$r --n 32768; done
for k in "--tiles 1" "--columns 8" "--columns 32" "--shared 49152" "--tiles 2" "--tiles 4"; do
  tag=$(echo $k | tr -d ' -'); v c-$tag --n 32768 $k
done
run cmpinv 80 $B bench --compare --inverse --real --n 64,16384,32768,65536 --warmup 0.3 --out $OUT/cmpinv.csv
run cmpfwd 60 $B bench --compare --real --n 64,65536 --warmup 0.3 --out $OUT/cmpfwd.csv
run cmpc 60 $B bench --compare --n 32768 --warmup 0.3 --out $OUT/cmpc.csv
save
sed 's/\.[0-9]* / /' $OUT/times.txt | tail -3
for f in $OUT/*.csv; do case $f in *cmp*) continue;; esac; echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
for f in $OUT/cmp*.csv; do echo "$(basename $f .csv)"; cut -d, -f1,5,9,11,13,14 $f | grep -v "^copy\|^library"; done
