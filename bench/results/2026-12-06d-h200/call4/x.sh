#!/usr/bin/env bash
# Thirty-ninth run, fourth call: does c2r's join read from memory lose more to looping over tiles
# than r2c and c2c do? The tuner picked `tiles=1` for c2r at 256, 1000, 1536, 4096 and 8192 on
# the H100 (thirty-eighth run). Each kind with the defaults and with `--tiles 1`, alternated
# twice, at the one-pass lengths 128 to 8192, 100, 1000, 1536, 3000 and 4000 (binary 23b044f).
# About 3 minutes.
set -u
source bench/h200-env.sh
pack_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
L=128,256,512,1024,2048,4096,8192,100,1000,1536,3000,4000
for r in 1 2; do
  for kind in c2r r2c c2c; do
    case $kind in c2r) a="--real --inverse";; r2c) a="--real";; c2c) a="";; esac
    run $kind-default-$r 60 twiddle bench $a --n $L --warmup 0.3 --out $OUT/$kind-default-$r.csv
    run $kind-tiles1-$r 60 twiddle bench $a --n $L --warmup 0.3 --tiles 1 --out $OUT/$kind-tiles1-$r.csv
  done
done
save
for f in $OUT/*-default-*.csv $OUT/*-tiles1-*.csv; do echo "$(basename $f .csv) $(grep '^twiddle' $f | cut -d, -f2,6 | tr '\n' ' ')"; done
