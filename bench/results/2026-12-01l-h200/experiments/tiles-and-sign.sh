#!/bin/bash
source bench/h200-env.sh
T=.h200/twiddle-fold; E=.h200/exp; O=$OUT
B="bench --warmup 0.5 --reps 30"
for round in 1 2; do
  for n in 2048 4096; do
    for v in default tiles2 tiles8 nosign; do
      case $v in
        default) $T $B --n $n ;;
        tiles2) $T $B --n $n --tiles 2 ;;
        tiles8) $T $B --n $n --tiles 8 ;;
        nosign) TWIDDLE_EXP_FROM=$E/f$n.comp TWIDDLE_EXP_TO=$E/f$n-nosign.comp $T $B --n $n ;;
      esac 2>&1 | grep -E "^ +[0-9]|^copy|substituted" | sed "s/^/$round $v /" >> $O/log.txt
    done
  done
done
grep -v "^.* copy" $O/log.txt | awk '{print $1, $2, $3, $7, $8}'
