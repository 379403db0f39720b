"""Runs `mpirun -np P twiddle fft IN OUT [--axes ...] --mpi` and compares the results with numpy.fft: over
every axis of 2D and 3D arrays (twiddle::dist), and over some of the axes of arrays split along one that
is not transformed; runs `mpirun -np P twiddle bench --mpi` on small shapes.

Usage: python3 fft_mpi_cli_test.py PATH/TO/twiddle PATH/TO/mpiexec [unittest arguments]
"""

import csv
import os
import subprocess
import sys

import numpy as np

import cli_test_common
from cli_test_common import relative_error

MPIEXEC = None  # set from the command line
TOLERANCE = {np.complex64: 1e-6, np.complex128: 1e-14, np.float32: 1e-6, np.float64: 1e-14}


def random_complex(shape, seed, dtype):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


class MpiCliTest(cli_test_common.CliTest):

    def mpi(self, ranks, *args, command="fft"):
        command = [MPIEXEC, "-np", str(ranks), "--oversubscribe", "--allow-run-as-root",
                   cli_test_common.TWIDDLE, command, *args, "--mpi"]
        return subprocess.run(command, capture_output=True, text=True, timeout=300)

    def mpi_failing(self, ranks, *args):
        """Runs `twiddle fft ARGS --mpi` expecting it to fail, with every rank left to exit by itself (mpirun
        does not abort the others when one exits non-zero, and then exits 0 itself), each printing its exit
        status: returns the run and the ranks' statuses."""
        report = '"$@"; status=$?; echo "exit status $status"; exit $status'
        command = [MPIEXEC, "-np", str(ranks), "--oversubscribe", "--allow-run-as-root",
                   "--mca", "orte_abort_on_non_zero_status", "0",
                   "sh", "-c", report, "sh", cli_test_common.TWIDDLE, "fft", *args, "--mpi"]
        run = subprocess.run(command, capture_output=True, text=True, timeout=60)  # no rank hangs
        statuses = [int(l.split()[-1]) for l in run.stdout.splitlines() if l.startswith("exit status ")]
        return run, statuses

    def run_ok(self, ranks, *args):
        run = self.mpi(ranks, *args)
        self.assertEqual(run.returncode, 0, f"{ranks} ranks {args}: {run.stderr}")
        self.assertEqual(run.stdout, "", args)
        return run

    def test_complex_2d_and_3d_both_ways(self):
        for ranks, shape, dtype, norm in ((2, (12, 10), np.complex64, "backward"),
                                          (3, (7, 5, 6), np.complex64, "ortho"),
                                          (4, (5, 9, 4), np.complex128, "forward"),
                                          (3, (2, 3), np.complex64, "backward")):  # ranks beyond the planes
            x = random_complex(shape, 11, dtype)
            x_path, y_path, z_path = self.path("x.npy"), self.path("y.npy"), self.path("z.npy")
            np.save(x_path, x)
            self.run_ok(ranks, x_path, y_path, "--axes", "all", "--norm", norm)
            y = np.load(y_path)
            want = np.fft.fftn(x.astype(np.complex128), norm=norm)
            self.assertEqual(y.dtype, dtype)
            self.assertEqual(y.shape, shape)
            self.assertLessEqual(relative_error(y, want), TOLERANCE[dtype], (ranks, shape))
            self.run_ok(ranks, y_path, z_path, "--axes", ",".join(str(a) for a in range(len(shape))), "--inverse",
                        "--norm", norm)
            z = np.load(z_path)
            want_back = np.fft.ifftn(y.astype(np.complex128), norm=norm)
            self.assertLessEqual(relative_error(z, want_back), TOLERANCE[dtype], (ranks, shape, "inverse"))

    def test_real_both_ways(self):
        for ranks, shape, dtype, n in ((2, (6, 8), np.float32, None), (3, (4, 6, 9), np.float64, None),
                                       (2, (5, 7), np.float32, 7)):
            rng = np.random.default_rng(5)
            x = rng.standard_normal(shape).astype(dtype)
            x_path, y_path, z_path = self.path("x.npy"), self.path("y.npy"), self.path("z.npy")
            np.save(x_path, x)
            self.run_ok(ranks, x_path, y_path, "--axes", "all", "--real")
            y = np.load(y_path)
            want = np.fft.rfftn(x.astype(np.float64))
            self.assertEqual(y.shape, want.shape)
            self.assertEqual(y.dtype, np.complex64 if dtype == np.float32 else np.complex128)
            self.assertLessEqual(relative_error(y, want), TOLERANCE[dtype], (ranks, shape))
            extra = ["--n", str(n)] if n else []
            self.run_ok(ranks, y_path, z_path, "--axes", "all", "--real", "--inverse", *extra)
            z = np.load(z_path)
            want_back = np.fft.irfftn(y.astype(np.complex128), s=shape if n else None)
            self.assertEqual(z.shape, want_back.shape)
            self.assertEqual(z.dtype, dtype)
            self.assertLessEqual(relative_error(z, want_back), TOLERANCE[dtype], (ranks, shape, "inverse"))

    def test_bench(self):
        out = self.path("bench.csv")
        for ranks, f64 in ((2, False), (3, True)):
            args = ["--shapes", "16x12x10,24x20", "--reps", "5", "--warmup", "0", "--out", out]
            run = self.mpi(ranks, *args, *(["--f64"] if f64 else []), command="bench")
            self.assertEqual(run.returncode, 0, run.stderr)
            table = [l.split() for l in run.stdout.splitlines()]
            self.assertEqual(table[0][:2], ["shape", "ranks"])
            self.assertEqual([row[0] for row in table[1:]], ["16x12x10", "24x20"])  # one row per shape, rank 0's
            with open(out) as f:
                records = list(csv.DictReader(f))
            self.assertEqual([r["shape"] for r in records], ["16x12x10", "24x20"])
            for record in records:
                self.assertEqual(record["status"], "ok")
                self.assertTrue(record["device"] and record["driver"], record)
                self.assertEqual(int(record["ranks"]), ranks)
                self.assertEqual(record["decomposition"], "slab")
                self.assertEqual(int(record["exchanges"]), 2)  # to slabs of axis 1 and back
                parts = [float(record[k]) for k in ("local_fft_ms", "staging_ms", "alltoall_ms")]
                self.assertTrue(all(p > 0 for p in parts), record)
                self.assertLessEqual(max(parts), float(record["total_ms"]) * 1.01, record)
                self.assertGreater(float(record["single_gpu_ms"]), 0)
                self.assertLess(float(record["rel_l2"]), 1e-14 if f64 else 1e-6)

    def check(self, ranks, x, args, want, dtype, what):
        """Runs `twiddle fft x.npy y.npy ARGS --mpi` on `ranks` ranks and compares y with `want`."""
        x_path, y_path = self.path("x.npy"), self.path("y.npy")
        np.save(x_path, x)
        self.run_ok(ranks, x_path, y_path, *args)
        y = np.load(y_path)
        self.assertEqual(y.shape, want.shape, what)
        self.assertEqual(y.dtype, dtype, what)
        self.assertLessEqual(relative_error(y, want), TOLERANCE[dtype], what)
        return y

    def test_complex_over_some_axes(self):
        # Slabs of the first axis not transformed, uneven ones among them, and ranks beyond its extent.
        for ranks, shape, axes, dtype, norm in ((2, (6, 10), "1", np.complex64, "backward"),
                                                (3, (7, 5), "0", np.complex64, "backward"),
                                                (3, (4, 6, 5), "1,2", np.complex128, "ortho"),
                                                (2, (5, 3, 7), "0,2", np.complex64, "forward"),
                                                (4, (6, 3, 5), "2,0", np.complex64, "backward"),
                                                (4, (3, 8), None, np.complex128, "backward"),  # the last axis
                                                (3, (3, 2, 4, 5), "-1,1", np.complex64, "backward")):
            what = (ranks, shape, axes)
            x = random_complex(shape, 3, dtype)
            listed = tuple(int(a) for a in axes.split(",")) if axes else (-1,)
            axes_args = ["--axes", axes] if axes else []
            y = self.check(ranks, x, [*axes_args, "--norm", norm],
                           np.fft.fftn(x.astype(np.complex128), axes=listed, norm=norm), dtype, what)
            self.check(ranks, y, [*axes_args, "--norm", norm, "--inverse"],
                       np.fft.ifftn(y.astype(np.complex128), axes=listed, norm=norm), dtype, (*what, "inverse"))

    def test_real_over_some_axes(self):
        # rfftn halves the last of the axes listed, whichever axis of the array that is.
        for ranks, shape, axes, dtype, n in ((3, (5, 7, 3), (0, 1), np.float32, 7),
                                             (4, (5, 3, 4), (2, 0), np.float64, 5),  # 3 planes, 4 ranks
                                             (2, (3, 10), None, np.float32, None)):  # rfft along the last axis
            what = (ranks, shape, axes)
            x = np.random.default_rng(4).standard_normal(shape).astype(dtype)
            axes_args = ["--axes", ",".join(map(str, axes))] if axes else []
            spectrum = np.complex64 if dtype == np.float32 else np.complex128
            y = self.check(ranks, x, [*axes_args, "--real"], np.fft.rfftn(x.astype(np.float64), axes=axes or (-1,)),
                           spectrum, what)
            s = [shape[a] for a in axes] if axes else None
            self.check(ranks, y, [*axes_args, "--real", "--inverse", *(["--n", str(n)] if n else [])],
                       np.fft.irfftn(y.astype(np.complex128), s=s, axes=axes or (-1,)), dtype, (*what, "inverse"))

    def test_every_axis_in_another_order(self):
        # The same transform as in order (DistPlan), where the real one halves the last axis still.
        x = random_complex((6, 5), 8, np.complex64)
        self.check(2, x, ["--axes", "1,0"], np.fft.fftn(x.astype(np.complex128)), np.complex64, "c2c 1,0")
        r = np.random.default_rng(9).standard_normal((4, 5, 6)).astype(np.float32)
        self.check(3, r, ["--axes", "1,0,-1", "--real"], np.fft.rfftn(r.astype(np.float64), axes=(1, 0, 2)),
                   np.complex64, "r2c 1,0,-1")

    def test_bad_input_fails_on_every_rank_and_writes_nothing(self):
        x_path, y_path = self.path("x.npy"), self.path("y.npy")
        np.save(x_path, random_complex((6, 4), 1, np.complex64))
        np.save(self.path("one.npy"), random_complex((16,), 1, np.complex64))
        np.save(self.path("four.npy"), random_complex((2, 3, 2, 2), 1, np.complex64))
        np.save(self.path("real.npy"), np.zeros((4, 4), np.float64))
        cases = (
            ([self.path("one.npy"), y_path], "2D or 3D"),                        # 1D: its one axis
            ([self.path("four.npy"), y_path, "--axes", "all"], "2D or 3D"),      # 4D, every axis
            ([self.path("real.npy"), y_path, "--axes", "1,0", "--real"], "list it last"),  # halving axis 0
            ([self.path("real.npy"), y_path, "--axes", "all"], "dtype"),         # real without --real
            ([x_path, y_path, "--axes", "2"], "out of range"),
            ([x_path, y_path, "--axes", "1", "--n", "4"], "--n"),
            ([self.path("missing.npy"), y_path, "--axes", "1"], "missing.npy"),
        )
        for args, message in cases:
            run, statuses = self.mpi_failing(3, *args)
            self.assertEqual(len(statuses), 3, (args, run.stdout))  # every rank exited,
            self.assertNotIn(0, statuses, args)                     # each non-zero
            lines = [l for l in run.stderr.splitlines() if l.startswith("twiddle:")]
            self.assertEqual(len(lines), 1, run.stderr)  # one line, from rank 0
            self.assertIn(message, lines[0], args)
            self.assertFalse(os.path.exists(y_path), args)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    MPIEXEC = sys.argv.pop(2)
    cli_test_common.main(__doc__)
