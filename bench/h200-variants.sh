#!/usr/bin/env bash
# Planner variants on the GPU machine, run after bench/h200-sweep.sh in the same call (the loader
# is unpacked there). Each line is one `twiddle bench` with one tuning option changed.
B=".h200/twiddle bench --reps 10"
N1="16,64,256,1024,4096,8192"
N2="16384,65536,1048576,16777216"
echo "--- shared 17000"; $B --shared 17000 --n $N1,$N2 | tail -10
echo "--- shared 25000"; $B --shared 25000 --n $N1 | tail -6
echo "--- max-radix 8"; $B --max-radix 8 --n $N1,$N2 | tail -10
echo "--- max-radix 8 shared 17000"; $B --max-radix 8 --shared 17000 --n $N1,$N2 | tail -10
echo "--- columns 8"; $B --columns 8 --n $N2 | tail -4
echo "--- max-pass 512"; $B --max-pass-length 512 --n 16384,65536,1048576,16777216 | tail -4
