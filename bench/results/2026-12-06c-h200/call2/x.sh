#!/usr/bin/env bash
# Thirty-eighth run, second call: the inverse transforms, first measured (f3832d0's `bench
# --inverse`): `twiddle bench --compare --inverse` (twiddle, VkFFT, cuFFT in the same process, FFTW
# on the CPU), c2r over r2c's sweep 2^8 to 2^20, then c2c inverses at lengths of each kind of plan;
# then twiddle's forward r2c of the same lengths in the same call for the direction's cost. About
# 5 minutes.
set -u
source bench/h200-env.sh  # also pack_out, save and run
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
C="--warmup 0.5 --reps 10"
run c2r 240 twiddle bench --compare --inverse --real --n 256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576 $C --out $OUT/c2r.csv
run c2c-inverse 150 twiddle bench --compare --inverse --n 64,1024,4096,8192,65536,1048576,1000 $C --out $OUT/c2c-inverse.csv
run r2c 60 twiddle bench --real --n 256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576 --out $OUT/r2c.csv
save
sed 's/\.[0-9]* / /' $OUT/times.txt
for f in c2r c2c-inverse; do grep -A40 "ratio best other" $OUT/$f.log | grep -v "^chart"; done
grep '^twiddle' $OUT/r2c.csv | cut -d, -f2,6 | tr '\n' ' '; echo
