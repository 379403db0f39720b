#!/usr/bin/env bash
# bench --mpi on the one-GPU machine with the exchanges packed and unpacked by the device's copies
# into and out of host-visible memory that MPI reads and writes in place (no host copies), the
# bound measured the same way: 512^3 on 1 and 2 ranks (twice), 1024^3 on 4 ranks, every rank on
# the one H200 (not the two-GPU bar).
set -u
source bench/h200-env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt 2>&1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
M="mpirun --allow-run-as-root --oversubscribe --bind-to none"
timeout 100 $M -np 1 .h200/twiddle-mpi bench --mpi --shapes 512x512x512 --reps 10 --warmup 0.5 --out $OUT/mpi1-512.csv > $OUT/mpi1-512.log 2>&1; echo "rc $?" >> $OUT/mpi1-512.log
for r in a b; do
timeout 120 $M -np 2 .h200/twiddle-mpi bench --mpi --shapes 512x512x512 --reps 10 --warmup 0.5 --out $OUT/mpi2-512$r.csv > $OUT/mpi2-512$r.log 2>&1; echo "rc $?" >> $OUT/mpi2-512$r.log
done
timeout 200 $M -np 4 .h200/twiddle-mpi bench --mpi --shapes 1024x1024x1024 --reps 5 --warmup 0.5 --out $OUT/mpi4-1024.csv > $OUT/mpi4-1024.log 2>&1; echo "rc $?" >> $OUT/mpi4-1024.log
for f in mpi1-512 mpi2-512a mpi2-512b mpi4-1024; do echo "== $f"; tail -n 3 $OUT/$f.log; done
cat $OUT/gpu.txt
cd $OUT && tar czf all.tgz *.csv *.log *.txt 2>/dev/null; rm -f *.csv *.log
