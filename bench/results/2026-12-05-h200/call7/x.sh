#!/usr/bin/env bash
# Thirty-third run, seventh call: the sixth call's leads at 64 and 1000 (workgroups of 64 and 128
# invocations) against the default, alternated three times, binary of e79d711.
set -u
source bench/h200-env.sh
save() { (cd $OUT && tar czf all.tgz.new *.csv *.log 2>/dev/null; mv all.tgz.new all.tgz); }
for r in 1 2 3; do
  for v in default wg64 wg128; do
    args=(); [ $v = wg64 ] && args=(--workgroup 64); [ $v = wg128 ] && args=(--workgroup 128)
    timeout 30 .h200/twiddle bench --n 64,1000 --out $OUT/$v-$r.csv "${args[@]}" > $OUT/$v-$r.log 2>&1
    save
  done
done
for f in $OUT/*.csv; do echo "$(basename $f .csv) $(grep twiddle $f | cut -d, -f2,6 | tr '\n' ' ')"; done
