#!/usr/bin/env python3
"""Joins `twiddle bench --out` and `cufft_bench --out` CSV files of one run into a table of
throughput and error, with twiddle's ratio to cuFFT. Markdown on stdout."""
import csv
import sys


def load(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: compare.py TWIDDLE.csv CUFFT.csv")
    ours, theirs = load(sys.argv[1]), load(sys.argv[2])
    copy_ours = next(float(r["gbps"]) for r in ours if r["library"] == "copy")
    copy_theirs = next(float(r["gbps"]) for r in theirs if r["library"] == "copy")
    cufft = {int(r["n"]): r for r in theirs if r["library"] == "cufft"}
    print(f"copy kernel: twiddle (Vulkan) {copy_ours:.0f} GB/s, CUDA memcpy {copy_theirs:.0f} GB/s\n")
    print("| N | batch | passes | twiddle GB/s | % of copy | cuFFT GB/s | ratio | twiddle err | cuFFT err |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in ours:
        if r["library"] != "twiddle":
            continue
        n = int(r["n"])
        c = cufft.get(n)
        gbps = float(r["gbps"])
        their = float(c["gbps"]) if c else float("nan")
        ratio = gbps / their if c and their > 0 else float("nan")
        status = "" if r["status"] == "ok" else f" ({r['status']})"
        print(f"| {n} | {r['batch']} | {r['passes']} | {gbps:.0f}{status} | {100 * float(r['copy_fraction']):.0f}% "
              f"| {their:.0f} | {ratio:.2f} | {float(r['rel_l2']):.1e} | {float(c['rel_l2']) if c else float('nan'):.1e} |")


if __name__ == "__main__":
    main()
