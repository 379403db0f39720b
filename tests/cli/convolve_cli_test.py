"""Runs `twiddle convolve` on .npy files and compares the results with numpy.fft.

Usage: python3 convolve_cli_test.py PATH/TO/twiddle [unittest arguments]
"""

import os

import numpy as np

import cli_test_common
from cli_test_common import relative_error

# Relative L2 error allowed against numpy's double-precision result, by the output's dtype.
TOLERANCE = {np.float32: 1e-6, np.complex64: 1e-6, np.float64: 1e-13, np.complex128: 1e-13}


def random(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def reference(a, b, axes):
    """numpy's circular convolution along `axes` (twiddle's --axes text; None: the last axis)."""
    listed = [-1] if axes is None else None if axes == "all" else [int(x) for x in axes.split(",")]
    if a.dtype.kind == "f" and b.dtype.kind == "f":
        shape = [a.shape[k] for k in (listed if listed is not None else range(a.ndim))]
        return np.fft.irfftn(np.fft.rfftn(a.astype(np.float64), axes=listed) *
                             np.fft.rfftn(b.astype(np.float64), axes=listed), s=shape, axes=listed)
    return np.fft.ifftn(np.fft.fftn(a.astype(np.complex128), axes=listed) *
                        np.fft.fftn(b.astype(np.complex128), axes=listed), axes=listed)


class Convolve(cli_test_common.CliTest):

    def convolve(self, a, b, axes=None):
        a_path, b_path, out_path = self.path("a.npy"), self.path("b.npy"), self.path("out.npy")
        np.save(a_path, a)
        np.save(b_path, b)
        args = ["convolve", a_path, b_path, out_path] + ([] if axes is None else ["--axes", axes])
        run = self.twiddle(*args)
        self.assertEqual(run.returncode, 0, f"{args}: {run.stderr}")
        self.assertEqual((run.stdout, run.stderr), ("", ""))
        return np.load(out_path)

    def check(self, a, b, axes=None, dtype=None):
        out = self.convolve(a, b, axes)
        want = reference(a, b, axes)
        self.assertEqual(out.dtype, np.dtype(dtype or np.result_type(a.dtype, b.dtype)))
        self.assertEqual(out.shape, a.shape)
        self.assertLessEqual(relative_error(out, want.astype(out.dtype)), TOLERANCE[out.dtype.type],
                             f"{a.dtype} {b.dtype} {a.shape} axes={axes}")

    def test_real_and_complex_along_the_last_axis(self):
        for dtype in (np.float32, np.float64, np.complex64, np.complex128):
            for shape in [(64,), (3, 100), (2, 3, 27)]:
                self.check(random(shape, dtype, 1), random(shape, dtype, 2))

    def test_axes(self):
        for axes in ["all", "0", "-2,-1", "0,2"]:
            self.check(random((6, 10, 5), np.float32, 3), random((6, 10, 5), np.float32, 4), axes)
            self.check(random((6, 10, 5), np.complex64, 5), random((6, 10, 5), np.complex64, 6), axes)

    def test_mixed_dtypes_promote_as_numpy(self):
        a, b = random((4, 32), np.float32, 7), random((4, 32), np.complex64, 8)
        self.check(a, b, dtype=np.complex64)
        self.check(random((4, 32), np.float64, 9), b, dtype=np.complex128)
        self.check(a, random((4, 32), np.float64, 10), dtype=np.float64)

    def test_a_kernel_of_one_impulse_shifts(self):
        a = random((5, 48), np.float32, 11)
        b = np.zeros((5, 48), np.float32)
        b[:, 3] = 1
        out = self.convolve(a, b)
        np.testing.assert_allclose(out, np.roll(a, 3, axis=-1), atol=1e-6)

    def test_refusals(self):
        a_path, b_path, out_path = self.path("a.npy"), self.path("b.npy"), self.path("out.npy")
        for a, b, args, message in [
            (np.zeros((2, 8), np.float32), np.zeros((2, 9), np.float32), [], "convolve needs equal shapes"),
            (np.zeros((2, 8), np.int32), np.zeros((2, 8), np.int32), [], "has dtype int32"),
            (np.zeros((), np.float32), np.zeros((), np.float32), [], "0-d array"),
            (np.zeros((2, 8), np.float32), np.zeros((2, 8), np.float32), ["--axes", "2"], "out of range"),
            (np.zeros((2, 8), np.float32), np.zeros((2, 8), np.float32), ["--axes", "1,1"], "repeated"),
            (np.zeros((5, 0), np.float32), np.zeros((5, 0), np.float32), [],
             "(shape 5x0): the last axis (the default): axis 1 has length 0"),
            (np.zeros((0, 5), np.float32), np.zeros((0, 5), np.float32), ["--axes", "0"],
             "(shape 0x5): --axes 0: axis 0 has length 0"),
        ]:
            np.save(a_path, a)
            np.save(b_path, b)
            run = self.twiddle("convolve", a_path, b_path, out_path, *args)
            self.assertEqual(run.returncode, 1, (a.dtype, a.shape, args, run.stderr))
            self.assertIn(message, run.stderr)
            self.assertEqual(run.stderr.count("\n"), 1, run.stderr)
            self.assertFalse(os.path.exists(out_path))
        run = self.twiddle("convolve", a_path, out_path)
        self.assertEqual(run.returncode, 2)


if __name__ == "__main__":
    cli_test_common.main(__doc__)
