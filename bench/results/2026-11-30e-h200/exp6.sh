N=.h200/twiddle
r() { echo "--- $*"; "$@" --reps 10 | grep -E "^ +[0-9]+ " ; }
r $N bench --n 2048,4096,8192,524288,2097152
r $N bench --tiles 2 --n 2048,4096,8192
r $N bench --tiles 8 --n 2048,4096,8192
r $N bench --tiles 4 --n 524288,2097152
r $N bench --tiles 16 --n 524288,2097152
r $N bench --columns 8 --n 2097152,4194304
r $N bench --max-radix 32 --shared 24576 --tiles 1 --n 8192
r $N bench --n 2048,4096,8192,524288,2097152
