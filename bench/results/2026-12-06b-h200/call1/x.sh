#!/usr/bin/env bash
# Thirty-seventh run, first call: the thirty-sixth run's prepared whole sweep with cuFFT and the
# tuner (../../2026-12-05c-h200/call2/x.sh), on twiddle at 9309a77 (`.h200/twiddle`), whose
# default plans' kernels are 5d1a30e's.
BIN=twiddle exec bash bench/results/2026-12-05c-h200/call2/x.sh
