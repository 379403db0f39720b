N=.h200/twiddle
r() { echo "--- $*"; "$@" --reps 10 | grep -E "^ +[0-9]+ " ; }
r $N bench --n 8192,16384
r $N bench --max-radix 32 --shared 24576 --n 8192
r $N bench --max-radix 32 --shared 24576 --tiles 1 --n 8192
r $N bench --shared 24576 --n 8192
r $N bench --tiles 1 --n 2048,4096
