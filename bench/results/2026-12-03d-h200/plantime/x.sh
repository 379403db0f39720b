#!/bin/bash
# Where a cold plan's time goes on the H200: pt (shaderc against the driver's compile, per kernel;
# cold plans in a warm process) and bench --plan-time at HEAD (ecbb2d8).
source bench/h200-env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
.h200/pt /tmp/pt-dump 24 > $OUT/pt.txt 2>&1
.h200/twiddle-mpi bench --plan-time --plan-reps 5 > $OUT/plan-time.txt 2>&1
cp -r /tmp/pt-dump $OUT/dump
tar czf $OUT/all.tgz -C $OUT gpu.txt pt.txt plan-time.txt dump
cat $OUT/gpu.txt; cat $OUT/pt.txt | cut -c1-200; tail -9 $OUT/plan-time.txt
