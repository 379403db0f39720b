"""Runs `mpirun -np P twiddle fft IN OUT --axes all --mpi` and compares the results with numpy.fft; runs
`mpirun -np P twiddle bench --mpi` on small shapes.

Usage: python3 fft_mpi_cli_test.py PATH/TO/twiddle PATH/TO/mpiexec [unittest arguments]
"""

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
                rows = [l.strip().split(",") for l in f]
            header = rows[0]
            for row in rows[1:]:
                record = dict(zip(header, row))
                self.assertEqual(record["status"], "ok")
                self.assertEqual(int(record["ranks"]), ranks)
                self.assertEqual(record["decomposition"], "slab")
                self.assertEqual(int(record["exchanges"]), 2)  # to slabs of axis 1 and back
                parts = [float(record[k]) for k in ("local_fft_ms", "staging_ms", "alltoall_ms")]
                self.assertTrue(all(p > 0 for p in parts), record)
                self.assertLessEqual(max(parts), float(record["total_ms"]) * 1.01, record)
                self.assertGreater(float(record["single_gpu_ms"]), 0)
                self.assertLess(float(record["rel_l2"]), 1e-14 if f64 else 1e-6)

    def test_bad_input_fails_on_every_rank_and_writes_nothing(self):
        x_path, y_path = self.path("x.npy"), self.path("y.npy")
        np.save(x_path, random_complex((6, 4), 1, np.complex64))
        np.save(self.path("one.npy"), random_complex((16,), 1, np.complex64))
        np.save(self.path("real.npy"), np.zeros((4, 4), np.float64))
        cases = (
            ([x_path, y_path], "--axes all"),                                # no --axes
            ([x_path, y_path, "--axes", "1"], "every axis"),                 # not every axis
            ([x_path, y_path, "--axes", "1,0"], "every axis"),               # not in order
            ([self.path("one.npy"), y_path, "--axes", "all"], "2D and 3D"),  # 1D
            ([self.path("real.npy"), y_path, "--axes", "all"], "dtype"),     # real without --real
            ([self.path("missing.npy"), y_path, "--axes", "all"], "missing.npy"),
        )
        for args, message in cases:
            run = self.mpi(2, *args)
            self.assertNotEqual(run.returncode, 0, args)
            lines = [l for l in run.stderr.splitlines() if l.startswith("twiddle:")]
            self.assertEqual(len(lines), 1, run.stderr)  # one line, from rank 0
            self.assertIn(message, lines[0], args)
            self.assertFalse(os.path.exists(y_path), args)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    MPIEXEC = sys.argv.pop(2)
    cli_test_common.main(__doc__)
