#!/usr/bin/env bash
# Thirty-third run, eighth call: workgroups of 64 and 128 invocations at the other short one-pass lengths
# (8 to 256), against the default, alternated twice, binary of e79d711.
set -u
source bench/h200-env.sh
save() { (cd $OUT && tar czf all.tgz.new *.csv *.log 2>/dev/null; mv all.tgz.new all.tgz); }
for r in 1 2; do
  for v in default wg64 wg128; do
    args=(); [ $v = wg64 ] && args=(--workgroup 64); [ $v = wg128 ] && args=(--workgroup 128)
    timeout 25 .h200/twiddle bench --n 8,16,32,64,128,256 --out $OUT/$v-$r.csv "${args[@]}" > $OUT/$v-$r.log 2>&1
    save
  done
done
for f in $OUT/*.csv; do echo "$(basename $f .csv) $(grep twiddle $f | cut -d, -f2,6 | tr '\n' ' ')"; done
