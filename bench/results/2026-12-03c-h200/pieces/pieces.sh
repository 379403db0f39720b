#!/usr/bin/env bash
# DistPlan's local transforms in pieces under maxStorageBufferRange: 1024^3 on 2 ranks
# (a rank's slab is 4 GiB, one byte over NVIDIA's range; refused before), beside 512^3 on 2 ranks
# and 1024^3 on 4 ranks, whose boxes need no pieces. Every rank on the one H200.
set -u
source bench/h200-env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt 2>&1
T=.h200/twiddle-mpi
export OMPI_MCA_btl_vader_single_copy_mechanism=none
M="mpirun --allow-run-as-root --oversubscribe --bind-to none"
timeout 250 $M -np 2 $T bench --mpi --shapes 1024x1024x1024 --reps 5 --warmup 0.5 --out $OUT/mpi2-1024.csv > $OUT/mpi2-1024.log 2>&1; echo "rc $?" >> $OUT/mpi2-1024.log
timeout 120 $M -np 2 $T bench --mpi --shapes 512x512x512 --reps 10 --warmup 0.5 --out $OUT/mpi2-512.csv > $OUT/mpi2-512.log 2>&1; echo "rc $?" >> $OUT/mpi2-512.log
timeout 200 $M -np 4 $T bench --mpi --shapes 1024x1024x1024 --reps 5 --warmup 0.5 --out $OUT/mpi4-1024.csv > $OUT/mpi4-1024.log 2>&1; echo "rc $?" >> $OUT/mpi4-1024.log
for f in mpi2-1024 mpi2-512 mpi4-1024; do echo "== $f"; tail -n 3 $OUT/$f.log; done
cd $OUT && tar czf all.tgz *.csv *.log *.txt 2>/dev/null; rm -f *.csv *.log
