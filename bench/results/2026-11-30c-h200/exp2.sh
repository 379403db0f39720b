N=.h200/twiddle; O=.h200/twiddle-prev
r() { echo "--- $*"; "$@" --reps 10 | grep -E "^ +[0-9]+ " ; }
r $O bench --n 32,512,1024,2048,4096,8192
r $N bench --n 32,512,1024,2048,4096,8192
r $N bench --no-subgroup-barriers --n 512,2048,4096,8192
r $N bench --max-radix 32 --n 32,512,2048,4096,8192
r $N bench --max-radix 32 --subgroup-run 8 --n 2048,4096
r $N bench --max-radix 32 --subgroup-run 16 --n 2048
r $N bench --subgroup-run 2 --n 4096,8192
r $N bench --subgroup-run 1 --n 4096,8192
r $O bench --n 32,512,1024,2048,4096,8192
r $N bench --n 32,512,1024,2048,4096,8192
