#!/usr/bin/env python3
"""Joins `twiddle bench --out` and `cufft_bench --out` CSV files of one run into a table of
throughput and error, with twiddle's ratio to cuFFT. Markdown on stdout.

Rows are joined on the `shape` column ("1024", "256x256") when both files have it, else on `n`
(files from before multi-dimensional cases: every row 1D). In that case a row of the file that has
`shape` joins only if it is 1D (shape == n), so a 256x256 row is never paired with a 65536 one."""
import csv
import sys


def load(path):
    with open(path) as f:
        reader = csv.DictReader(f)
        return list(reader), "shape" in (reader.fieldnames or [])


def case_of(r, has_shape):
    """The row's case as printed: its shape if the file has that column (and it is set), else n."""
    shape = r.get("shape", "") if has_shape else ""
    return shape if shape not in ("", "-") else str(int(r["n"]))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: compare.py TWIDDLE.csv CUFFT.csv")
    (ours, ours_shape), (theirs, theirs_shape) = load(sys.argv[1]), load(sys.argv[2])
    copy_ours = next(float(r["gbps"]) for r in ours if r["library"] == "copy")
    copy_theirs = next(float(r["gbps"]) for r in theirs if r["library"] == "copy")
    # Keyed by the case name; without a shape column that is str(n), the name of the 1D case.
    cufft = {case_of(r, theirs_shape): r for r in theirs if r["library"] == "cufft"}
    print(f"copy kernel: twiddle (Vulkan) {copy_ours:.0f} GB/s, CUDA memcpy {copy_theirs:.0f} GB/s\n")
    print("| case | batch | passes | twiddle GB/s | % of copy | cuFFT GB/s | ratio | twiddle err | cuFFT err |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in ours:
        if r["library"] != "twiddle":
            continue
        case = case_of(r, ours_shape)
        c = cufft.get(case)
        gbps = float(r["gbps"])
        their = float(c["gbps"]) if c else float("nan")
        ratio = gbps / their if c and their > 0 else float("nan")
        status = "" if r["status"] == "ok" else f" ({r['status']})"
        print(f"| {case} | {r['batch']} | {r['passes']} | {gbps:.0f}{status} | {100 * float(r['copy_fraction']):.0f}% "
              f"| {their:.0f} | {ratio:.2f} | {float(r['rel_l2'] or 'nan'):.1e} | {float(c['rel_l2'] or 'nan') if c else float('nan'):.1e} |")


if __name__ == "__main__":
    main()
