#!/bin/bash
# Experiment: hand-edited 2048/4096 one-pass kernels substituted for the generated ones.
source bench/h200-env.sh
T=.h200/twiddle-exp
E=.h200/exp
O=$OUT
B="bench --warmup 0.5 --reps 30"
TWIDDLE_DUMP_SHADERS=$O/dump $T bench --n 2048 4096 --reps 5 --warmup 0 --kernel-stats 2>&1 | grep "^N=" | tee -a $O/log.txt
for round in 1 2; do
  for n in 2048 4096; do
    for v in v0 fold nosign all vec2 vec2fold notw; do
      echo "--- round $round n$n $v" >> $O/log.txt
      TWIDDLE_EXP_FROM=$E/g$n.comp TWIDDLE_EXP_TO=$E/n$n-$v.comp $T $B --n $n --kernel-stats 2>&1 | grep -E "^N=|^ +[0-9]|substituted" >> $O/log.txt
    done
  done
done
.h200/cufft_bench --cases 2048,4096 2>&1 | tail -3 >> $O/log.txt
python3 - $O/log.txt <<'PY'
import sys,re
cur=None; rows={}
for l in open(sys.argv[1]):
    m=re.match(r'--- round (\d) n(\d+) (\w+)',l)
    if m: cur=(m.group(2),m.group(3)); continue
    m=re.match(r'\s+(\d+)\s+\d+\s+\d+\s+[\d.]+\s+([\d.]+)\s+(\d+)%\s+(\S+)\s+(\w+)',l)
    if m and cur: rows.setdefault(cur,[]).append('%s %s%% %s %s'%(m.group(2),m.group(3),m.group(4),m.group(5)))
    m=re.search(r'Register Count: (\d+)',l)
    if m and cur: rows.setdefault(cur,[]).append('r'+m.group(1))
for k,v in rows.items(): print(k[0],k[1],' | '.join(v))
PY
