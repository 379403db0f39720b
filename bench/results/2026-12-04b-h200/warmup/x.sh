#!/usr/bin/env bash
# The warm-up that waits for a steady speed (twiddle, 1bbb10b)
# against the fixed one (twiddle-old), both with --warmup 0.3 over c2c 2^16 to 2^24, alternated
# twice, the GPU's clocks sampled every 200 ms (clocks.csv, times.txt). Then the whole sweep with
# the new binary at the default warm-up (1 s), cuFFT in the same call.
set -u
source bench/h200-env.sh
P=65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216
ALL=8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216,100,1000,1536,4095,10007,1000000
S=256x256,512x512,1024x1024,2048x2048,4096x4096
R=256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 200 > $OUT/clocks.csv 2>&1 &
SAMPLER=$!
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
run() {  # name, binary, bench args
  local name=$1 bin=$2; shift 2
  echo "$(date +%H:%M:%S.%N) start $name" >> $OUT/times.txt
  timeout 150 .h200/$bin bench "$@" --out $OUT/$name.csv > $OUT/$name.log 2>&1
  echo "$(date +%H:%M:%S.%N) end $name" >> $OUT/times.txt
}
for r in 1 2; do
  run old-$r twiddle-old --n $P --warmup 0.3
  run new-$r twiddle --n $P --warmup 0.3
done
.h200/cufft_bench --cases $ALL --out $OUT/cufft.csv > $OUT/cufft.log 2>&1
.h200/cufft_bench --shapes $S --out $OUT/cufft-2d.csv > $OUT/cufft-2d.log 2>&1
.h200/cufft_bench --cases $R --r2c --out $OUT/cufft-r2c.csv > $OUT/cufft-r2c.log 2>&1
run sweep twiddle --n $ALL
run sweep-2d twiddle --shapes $S
run sweep-r2c twiddle --n $R --real
kill $SAMPLER
for b in old-1 new-1 old-2 new-2; do grep -E "^ +[0-9x]+ " $OUT/$b.log | awk -v t=$b '{printf "%-6s %s\n", t, $0}' | cut -c1-100; done
python3 - $OUT <<'PY'
import csv, sys, os
out = sys.argv[1]
def rows(f):
    with open(os.path.join(out, f)) as fh:
        return {r['n'] + ('' if r.get('shape', '-') in ('-', '', r['n']) else ':' + r['shape']): r for r in csv.DictReader(fh) if r['library'] != 'copy'}
for tw, cu in (('sweep.csv', 'cufft.csv'), ('sweep-2d.csv', 'cufft-2d.csv'), ('sweep-r2c.csv', 'cufft-r2c.csv')):
    try:
        t, c = rows(tw), rows(cu)
    except Exception as e:
        print(tw, 'missing', e); continue
    for k, r in t.items():
        ck = k if k in c else k.split(':')[0]
        cg = float(c[ck]['gbps']) if ck in c else 0
        print(f"{tw:14s} {k:20s} {float(r['gbps']):8.1f} {cg:8.1f} {float(r['gbps'])/cg if cg else 0:6.3f} {r['rel_l2']} {c[ck]['rel_l2'] if ck in c else ''}")
PY
cat $OUT/gpu.txt
cd $OUT && tar czf all.tgz *.csv *.log times.txt && rm -f *.log
