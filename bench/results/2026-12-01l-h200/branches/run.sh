#!/bin/bash
# Sign and scale in uniform branches (twiddle-sign) against folded addresses alone (twiddle-fold).
source bench/h200-env.sh
O=$OUT
C=8,16,32,64,128,256,512,1024,2048,4096,8192
L=16384,32768,65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216,100,1000,1536,4095,10007,1000000
B="bench --warmup 0.5"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $O/gpu.txt
.h200/twiddle-sign bench --n 2048 4096 --reps 5 --warmup 0 --kernel-stats 2>&1 | grep Register >> $O/gpu.txt
.h200/twiddle-sign $B --n ${C//,/ } --out $O/sign-1.csv > /dev/null 2>>$O/err.txt
.h200/twiddle-fold $B --n ${C//,/ } --out $O/fold-1.csv > /dev/null 2>>$O/err.txt
.h200/twiddle-sign $B --n ${C//,/ } --out $O/sign-2.csv > /dev/null 2>>$O/err.txt
.h200/cufft_bench --cases $C --out $O/cufft.csv > /dev/null
.h200/twiddle-sign $B --n ${L//,/ } --out $O/sign-long.csv > /dev/null 2>>$O/err.txt
.h200/cufft_bench --cases $L --out $O/cufft-long.csv > /dev/null
python3 - $O <<'PY'
import csv,sys
o=sys.argv[1]
def load(f):
    return {('copy' if r['library']=='copy' else r['shape']):float(r['gbps']) for r in csv.DictReader(open(f))}
S1,F,S2,C=(load(o+'/'+f) for f in ('sign-1.csv','fold-1.csv','sign-2.csv','cufft.csv'))
print('copy',S1['copy'],F['copy'],S2['copy'],C['copy'])
for k in S1:
    if k!='copy': print('%6s sign %6.0f %6.0f fold %6.0f cufft %6.0f  sign %%copy %.1f %.1f  x cufft %.2f'%(k,S1[k],S2[k],F[k],C[k],100*S1[k]/S1['copy'],100*S2[k]/S2['copy'],(S1[k]+S2[k])/2/C[k]))
L,CL=load(o+'/sign-long.csv'),load(o+'/cufft-long.csv')
for k in L:
    if k!='copy': print('%8s sign %6.0f cufft %6.0f x %.2f'%(k,L[k],CL.get(k,0),L[k]/CL.get(k,1)))
PY
cat $O/gpu.txt
