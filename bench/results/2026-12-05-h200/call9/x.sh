#!/usr/bin/env bash
# Thirty-third run, ninth call: workgroups of 64 invocations for r2c 256 to 1024, against the
# default, once each (the session's device time was nearly spent), binary of e79d711.
set -u
source bench/h200-env.sh
timeout 25 .h200/twiddle bench --real --n 256,512,1024 --out $OUT/default.csv > $OUT/default.log 2>&1
timeout 25 .h200/twiddle bench --real --n 256,512,1024 --workgroup 64 --out $OUT/wg64.csv > $OUT/wg64.log 2>&1
(cd $OUT && tar czf all.tgz *.csv *.log)
for f in $OUT/*.csv; do echo "$(basename $f .csv) $(grep twiddle $f | cut -d, -f2,6 | tr '\n' ' ')"; done
