#!/usr/bin/env bash
# Forty-second run, first call: the multi-pass lengths in chunks of the batch, each chunk through
# every pass before the next, so that a chunk's intermediates stay in L2; against the default
# recording and cuFFT. twiddle-x: experiment switches in the recording only (TW_EXP_CHUNK_MB, _PIPE:
# chunk c's pass p beside chunk c+1's pass p-1, _MOVING: each chunk its own part of the scratch);
# twiddle-c: the planner's chunks (LogicalPlan::chunk_transforms, passes planned for one chunk),
# --chunk-bytes.
set -u
source bench/h200-env.sh  # also pack_out, save and run
pack_out
N=32768,65536,131072,262144,524288,1048576,2097152,4194304
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
run cufft 60 cufft_bench --cases $N --out $OUT/cufft.csv
cfg() {  # cfg NAME MB PIPE MOVING [bench args]
  local name=$1 mb=$2 pipe=$3 moving=$4; shift 4
  unset TW_EXP_CHUNK_MB TW_EXP_CHUNK_PIPE TW_EXP_CHUNK_MOVING
  [ "$mb" != 0 ] && export TW_EXP_CHUNK_MB=$mb
  [ "$pipe" = 1 ] && export TW_EXP_CHUNK_PIPE=1
  [ "$moving" = 1 ] && export TW_EXP_CHUNK_MOVING=1
  run $name 40 twiddle-x bench --n $N --warmup 0.3 --out $OUT/$name.csv "$@"
}
# The essentials first: each step saves, so a call cut short keeps them.
cfg base1 0 0 0
cfg c8 8 0 0
unset TW_EXP_CHUNK_MB TW_EXP_CHUNK_PIPE TW_EXP_CHUNK_MOVING
run k8388608 40 twiddle-c bench --n $N --warmup 0.3 --chunk-bytes 8388608 --out $OUT/k8388608.csv
cfg c16 16 0 0
unset TW_EXP_CHUNK_MB TW_EXP_CHUNK_PIPE TW_EXP_CHUNK_MOVING
run kwhole 40 twiddle-c bench --n $N --warmup 0.3 --chunk-bytes 1099511627776 --out $OUT/kwhole.csv
cfg p8 8 1 0
cfg c4 4 0 0
cfg base2 0 0 0
cfg c8b 8 0 0
save
cat $OUT/gpu.txt
echo "cufft $(grep '^cufft' $OUT/cufft.csv | cut -d, -f5 | cut -d. -f1 | tr '\n' ' ')"
for f in base1 c8 k8388608 c16 kwhole p8 c4 base2 c8b; do echo "$f $(grep '^twiddle' $OUT/$f.csv | cut -d, -f6,9 | cut -d. -f1 | tr '\n' ' ')"; done
