#!/usr/bin/env bash
# Where DistPlan's local transforms lose against one plan (512^3: 5.6 ms on one rank against 1.7):
# the plans of its stages (info JSON) and one-device times of the 3D transform and of the batched
# 2D stage; then bench --mpi with the device's copies timed (staging by timestamps, wait apart),
# with Open MPI's shared-memory single copy off (as before) and with CMA.
set -u
source bench/h200-env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt 2>&1
T=.h200/twiddle-mpi
$T info --shape 512x512x512 > $OUT/info-3d.json 2>&1
$T info --shape 512x512x512 --axes 1,2 > $OUT/info-512-axes12.json 2>&1
$T info --shape 512x512x512 --axes 0 > $OUT/info-512-axis0.json 2>&1
$T info --shape 256x512x512 --axes 1,2 > $OUT/info-256-axes12.json 2>&1
$T info --shape 512x256x512 --axes 0 > $OUT/info-512x256-axis0.json 2>&1
$T bench --shapes 512x512 512x512x512 --total 27 --warmup 0.5 > $OUT/one-device.log 2>&1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
M="mpirun --allow-run-as-root --oversubscribe --bind-to none"
timeout 100 $M -np 1 $T bench --mpi --shapes 512x512x512 --reps 10 --warmup 0.5 --out $OUT/mpi1-512.csv > $OUT/mpi1-512.log 2>&1; echo "rc $?" >> $OUT/mpi1-512.log
timeout 120 $M -np 2 $T bench --mpi --shapes 512x512x512 --reps 10 --warmup 0.5 --out $OUT/mpi2-512.csv > $OUT/mpi2-512.log 2>&1; echo "rc $?" >> $OUT/mpi2-512.log
OMPI_MCA_btl_vader_single_copy_mechanism=cma timeout 120 $M -np 2 $T bench --mpi --shapes 512x512x512 --reps 10 --warmup 0.5 --out $OUT/mpi2-512-cma.csv > $OUT/mpi2-512-cma.log 2>&1; echo "rc $?" >> $OUT/mpi2-512-cma.log
timeout 200 $M -np 4 $T bench --mpi --shapes 1024x1024x1024 --reps 5 --warmup 0.5 --out $OUT/mpi4-1024.csv > $OUT/mpi4-1024.log 2>&1; echo "rc $?" >> $OUT/mpi4-1024.log
for f in info-3d info-512-axes12 info-512-axis0 info-256-axes12 info-512x256-axis0; do
  python3 -c "import json,sys; d=json.load(open('$OUT/$f.json'))['plan']; print('$f', d.get('summary'), [(p['kernel'],p['radix'],p['dim'],p.get('vectorized'),p['columns_per_workgroup'],p['workgroups']) for p in d.get('passes',[])], d.get('error',''))" 2>&1 | cut -c1-400
done
grep -E "512x512|copy" $OUT/one-device.log
for f in mpi1-512 mpi2-512 mpi2-512-cma mpi4-1024; do echo "== $f"; tail -n 3 $OUT/$f.log; done
cd $OUT && tar czf all.tgz *.csv *.log *.txt *.json 2>/dev/null; rm -f *.csv *.log *.json
