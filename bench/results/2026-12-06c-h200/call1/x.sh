#!/usr/bin/env bash
# Thirty-eighth run, first call: the two calls prepared for an H200 and not yet run there, one
# after the other, each into a folder of its own ($OUT/r2c/all.tgz, $OUT/ab/all.tgz): r2c 128 to
# 1024 at radix 4 and 8 against the defaults, with cuFFT (../../2026-12-06b-h200/call4/), then the
# A/B of 5d1a30e against 683d33a and less shared memory (../../2026-12-05c-h200/call1/). About 200 s.
set -u
RETURNED=$OUT
mkdir -p "$RETURNED/r2c" "$RETURNED/ab"
OUT=$RETURNED/r2c bash bench/results/2026-12-06b-h200/call4/x.sh
OUT=$RETURNED/ab bash bench/results/2026-12-05c-h200/call1/x.sh
