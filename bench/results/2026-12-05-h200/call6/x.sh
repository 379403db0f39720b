#!/usr/bin/env bash
# Thirty-third run, sixth call: planner knobs at the one-pass lengths below cuFFT (64, 1000, 2048,
# 4096; 8192 and 1536 beside), binary of e79d711, the default run first, between and last.
set -u
source bench/h200-env.sh
N=64,1000,1536,2048,4096,8192
save() { (cd $OUT && tar czf all.tgz.new *.csv *.log times.txt 2>/dev/null; mv all.tgz.new all.tgz); }
run() {  # name, args
  local name=$1; shift
  echo "$(date +%H:%M:%S.%N) start $name" >> $OUT/times.txt
  timeout 40 .h200/twiddle bench --n $N --out $OUT/$name.csv --kernel-stats "$@" > $OUT/$name.log 2>&1
  echo "$(date +%H:%M:%S.%N) end $name rc=$?" >> $OUT/times.txt
  save
}
run default-1
run wg64 --workgroup 64
run wg128 --workgroup 128
run wg512 --workgroup 512
run wg1024 --workgroup 1024
run default-2
run tiles1 --tiles 1
run tiles2 --tiles 2
run tiles8 --tiles 8
run nosgb --no-subgroup-barriers
run portable --strategy portable
run radix32 --max-radix 32
run shared48k --shared 49152
run default-3
save
python3 - $OUT <<'PY'
import csv, sys, os, glob
o = sys.argv[1]
names = [os.path.basename(f)[:-4] for f in sorted(glob.glob(o + '/*.csv'), key=os.path.getmtime)]
t = {}
for n in names:
    try: t[n] = {r['shape']: float(r['gbps']) for r in csv.DictReader(open(f'{o}/{n}.csv')) if r['library'] == 'twiddle'}
    except Exception: pass
keys = ['64', '1000', '1536', '2048', '4096', '8192']
print('%-11s' % 'variant', *('%7s' % k for k in keys))
for n, r in t.items(): print('%-11s' % n, *('%7.0f' % r[k] if k in r else '      -' for k in keys))
PY
