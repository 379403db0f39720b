#!/bin/bash
source bench/h200-env.sh
T=.h200/twiddle-fold; E=.h200/exp; O=$OUT
B="bench --warmup 0.5 --reps 30"
for round in 1 2; do
  K=""; [ $round = 1 ] && K=--kernel-stats
  for n in 2048 4096; do
    for v in default nosign half halfnosign half12nosign; do
      if [ $v = default ]; then $T $B --n $n $K; else TWIDDLE_EXP_FROM=$E/f$n.comp TWIDDLE_EXP_TO=$E/f$n-$v.comp $T $B --n $n $K; fi 2>&1 | grep -E "^ +[0-9]|^copy|Register" | sed "s/^/$round $v /" >> $O/log.txt
    done
  done
done
grep -v "^.* copy" $O/log.txt | awk '{print $1, $2, $3, $5, $6, $7, $8}'
grep "copy" $O/log.txt | awk '{print $4}' | tr '\n' ' '
