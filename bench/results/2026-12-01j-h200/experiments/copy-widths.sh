#!/bin/bash
source bench/h200-env.sh
T=.h200/twiddle-exp
for round in 1 2; do
  for e in "" 16 104 108 116 208 308; do
    echo "copy mode '$e': $(TWIDDLE_EXP_COPY=$e $T bench --n 2048 --reps 30 --warmup 0.5 2>&1 | grep -i '^copy' )"
  done
done | tee $OUT/log.txt
