#!/usr/bin/env bash
# Issue 8's bench --mpi on the one-GPU machine (the two-GPU one was not lent): whether the build with
# Open MPI (.h200/twiddle-mpi, linked against Debian 12's libmpi.so.40) runs under the device
# image's Open MPI, and the figures of 2 ranks sharing one H200 (not the two-GPU bar).
set -u
source bench/h200-env.sh
nvidia-smi -L > $OUT/gpu.txt 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv >> $OUT/gpu.txt 2>&1
{ mpirun --version; ldd .h200/twiddle-mpi | grep -i "mpi\|not found"; nproc; free -g; } > $OUT/env.txt 2>&1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
M="mpirun --allow-run-as-root --oversubscribe --bind-to none"
timeout 150 $M -np 2 .h200/twiddle-mpi bench --mpi --shapes 512x512x512 --warmup 0.5 --out $OUT/mpi2-512.csv > $OUT/mpi2-512.log 2>&1; echo "rc $?" >> $OUT/mpi2-512.log
timeout 150 $M -np 1 .h200/twiddle-mpi bench --mpi --shapes 512x512x512 --warmup 0.5 --out $OUT/mpi1-512.csv > $OUT/mpi1-512.log 2>&1; echo "rc $?" >> $OUT/mpi1-512.log
timeout 200 $M -np 2 .h200/twiddle-mpi bench --mpi --shapes 1024x1024x1024 --warmup 0.5 --out $OUT/mpi2-1024.csv > $OUT/mpi2-1024.log 2>&1; echo "rc $?" >> $OUT/mpi2-1024.log
cat $OUT/env.txt | head -8
for f in mpi2-512 mpi1-512 mpi2-1024; do echo "== $f"; tail -n 8 $OUT/$f.log; done
cat $OUT/gpu.txt
cd $OUT && tar czf all.tgz *.csv *.log *.txt 2>/dev/null; rm -f *.csv *.log env.txt
