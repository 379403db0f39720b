#!/usr/bin/env bash
# Planner variants on the GPU machine, run after bench/h200-sweep.sh in the same call (the loader
# is unpacked there). Each line is one `twiddle bench` with one tuning option changed from the
# defaults, on the lengths where it matters; compare with the sweep's rows.
B=".h200/twiddle bench --reps 10"
ONE="64,256,512,1024,2048,4096,8192"
MULTI="16384,65536,262144,1048576,16777216"
echo "--- no subgroup barriers"; $B --no-subgroup-barriers --n 512,1024 | tail -3
echo "--- max-radix 16"; $B --max-radix 16 --n 64,1024 | tail -3
echo "--- max-radix 32"; $B --max-radix 32 --n $ONE | tail -8
echo "--- tiles 1"; $B --tiles 1 --n $ONE,$MULTI | tail -13
echo "--- tiles 4"; $B --tiles 4 --n $MULTI | tail -6
echo "--- columns 8"; $B --columns 8 --n $MULTI | tail -6
echo "--- shared 49152"; $B --shared 49152 --n $MULTI | tail -6
