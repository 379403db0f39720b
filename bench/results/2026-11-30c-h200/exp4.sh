N=.h200/twiddle
r() { echo "--- $*"; "$@" --reps 10 | grep -E "^ +[0-9]+ " ; }
r $N bench --n 32768,65536,131072,262144,524288,1048576
r $N bench --max-radix 16 --n 131072,262144,524288,1048576
r $N bench --tiles 1 --n 8192,16384
r $N bench --shared 49152 --columns 4 --n 2097152,4194304
r $N bench --columns 2 --n 2097152
r $N bench --n 2097152,4194304,16777216
r $N bench --n 32768,65536,131072,262144,524288,1048576
