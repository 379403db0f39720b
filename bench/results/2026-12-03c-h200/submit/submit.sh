#!/usr/bin/env bash
# After the kept recorders (command buffer, pool and fence reused across submissions): the wall
# time of one synchronous submission and of Plan::execute (latency.cpp, built against the
# commit's libtwiddle.so), Buffer's 1 GiB transfers, and bench --mpi on 1, 2 and 4 ranks.
set -u
source bench/h200-env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt 2>&1
LD_LIBRARY_PATH=.h200 timeout 200 .h200/latency > $OUT/latency.log 2>&1
T=.h200/twiddle-mpi
export OMPI_MCA_btl_vader_single_copy_mechanism=none
M="mpirun --allow-run-as-root --oversubscribe --bind-to none"
timeout 100 $M -np 1 $T bench --mpi --shapes 512x512x512 --reps 10 --warmup 0.5 --out $OUT/mpi1-512.csv > $OUT/mpi1-512.log 2>&1; echo "rc $?" >> $OUT/mpi1-512.log
for r in a b; do
timeout 120 $M -np 2 $T bench --mpi --shapes 512x512x512 --reps 10 --warmup 0.5 --out $OUT/mpi2-512$r.csv > $OUT/mpi2-512$r.log 2>&1; echo "rc $?" >> $OUT/mpi2-512$r.log
done
timeout 200 $M -np 4 $T bench --mpi --shapes 1024x1024x1024 --reps 5 --warmup 0.5 --out $OUT/mpi4-1024.csv > $OUT/mpi4-1024.log 2>&1; echo "rc $?" >> $OUT/mpi4-1024.log
cat $OUT/latency.log
for f in mpi1-512 mpi2-512a mpi2-512b mpi4-1024; do echo "== $f"; tail -n 3 $OUT/$f.log; done
cd $OUT && tar czf all.tgz *.csv *.log *.txt 2>/dev/null; rm -f *.csv *.log
