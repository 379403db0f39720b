#!/bin/bash
# Folded shared-memory addresses (pb bases) against the previous kernels, cuFFT in the same run.
source bench/h200-env.sh
O=$OUT
P2=8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216
NP=100,1000,1536,4095,10007,1000000
SH=256x256,512x512,1024x1024,2048x2048,4096x4096
B="bench --warmup 0.5"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $O/gpu.txt
for round in 1 2; do
  for v in twiddle twiddle-fold; do
    .h200/$v $B --n ${P2//,/ } ${NP//,/ } --out $O/$v-c2c-$round.csv > /dev/null 2>>$O/err.txt
  done
done
for v in twiddle twiddle-fold; do
  .h200/$v $B --shapes ${SH//,/ } --out $O/$v-2d.csv > /dev/null 2>>$O/err.txt
  .h200/$v $B --real --max 20 --min 8 --out $O/$v-r2c.csv > /dev/null 2>>$O/err.txt
done
.h200/cufft_bench --cases $P2,$NP --out $O/cufft-c2c.csv > /dev/null
.h200/cufft_bench --shapes $SH --out $O/cufft-2d.csv > /dev/null
.h200/cufft_bench --r2c --cases 256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576 --out $O/cufft-r2c.csv > /dev/null
tar czf $O/all.tgz -C $O $(cd $O; ls *.csv) && rm $O/*.csv
