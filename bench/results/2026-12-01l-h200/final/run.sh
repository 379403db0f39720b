#!/bin/bash
# Folded shared addresses, sign and scale in uniform branches for kernels of <= 16 points: the
# one-pass powers of two twice, cuFFT in the same run.
source bench/h200-env.sh
O=$OUT
C=8,16,32,64,128,256,512,1024,2048,4096,8192
B="bench --warmup 0.5"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $O/gpu.txt
.h200/twiddle-sign $B --n ${C//,/ } --out $O/twiddle-1.csv > /dev/null 2>>$O/err.txt
.h200/cufft_bench --cases $C --out $O/cufft.csv > /dev/null
.h200/twiddle-sign $B --n ${C//,/ } --out $O/twiddle-2.csv > /dev/null 2>>$O/err.txt
python3 - $O <<'PY'
import csv,sys
o=sys.argv[1]
def load(f):
    return {('copy' if r['library']=='copy' else r['shape']):float(r['gbps']) for r in csv.DictReader(open(f))}
S1,S2,C=(load(o+'/'+f) for f in ('twiddle-1.csv','twiddle-2.csv','cufft.csv'))
print('copy',S1['copy'],S2['copy'],C['copy'])
for k in S1:
    if k!='copy': print('%6s twiddle %6.0f %6.0f cufft %6.0f  %%copy %.1f %.1f  x cufft %.2f'%(k,S1[k],S2[k],C[k],100*S1[k]/S1['copy'],100*S2[k]/S2['copy'],(S1[k]+S2[k])/2/C[k]))
PY
