#!/bin/bash
# Confirmation: one-pass powers of two with folded shared addresses, cuFFT in the same run.
source bench/h200-env.sh
O=$OUT
C=8,16,32,64,128,256,512,1024,2048,4096,8192
B="bench --warmup 0.5"
.h200/twiddle-fold $B --n ${C//,/ } --out $O/fold-1.csv > /dev/null 2>>$O/err.txt
.h200/twiddle $B --n ${C//,/ } --out $O/old-1.csv > /dev/null 2>>$O/err.txt
.h200/twiddle-fold $B --n ${C//,/ } --out $O/fold-2.csv > /dev/null 2>>$O/err.txt
.h200/cufft_bench --cases $C --out $O/cufft.csv > /dev/null
.h200/cufft_bench --cases 4194304,8388608,16777216,100,1000,1536,4095,10007,1000000 --out $O/cufft-rest.csv > /dev/null
python3 - $O <<'PY'
import csv,sys
o=sys.argv[1]
def load(f):
    return {('copy' if r['library']=='copy' else r['shape']):float(r['gbps']) for r in csv.DictReader(open(f))}
F1,A,F2,C=(load(o+'/'+f) for f in ('fold-1.csv','old-1.csv','fold-2.csv','cufft.csv'))
print('copy',F1['copy'],A['copy'],F2['copy'],C['copy'])
for k in F1:
    if k!='copy': print('%6s fold %6.0f %6.0f old %6.0f cufft %6.0f  fold %%copy %.1f %.1f  x cufft %.2f'%(k,F1[k],F2[k],A[k],C[k],100*F1[k]/F1['copy'],100*F2[k]/F2['copy'],(F1[k]+F2[k])/2/C[k]))
PY
