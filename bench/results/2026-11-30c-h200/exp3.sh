N=.h200/twiddle
r() { echo "--- $*"; "$@" --reps 10 | grep -E "^ +[0-9]+ " ; }
r $N bench --n 2048,4096,8192,16384,32768
r $N bench --shared 24576 --n 8192,16384
r $N bench --max-radix 32 --n 65536,262144,524288,1048576,2097152
r $N bench --n 65536,262144,524288,1048576,2097152
r $N bench --max-radix 32 --columns 8 --shared 49152 --n 524288,1048576,2097152
echo "--- stats"; $N bench --kernel-stats --reps 5 --n 2048,4096,8192,16384 2>&1 | grep -iE "regist|^ +[0-9]+ |kernel" | head -30
