"""Runs `twiddle sht-synth` and `twiddle sht-analys` on .npy files and compares the results with numpy.fft.

Usage: python3 sht_cli_test.py PATH/TO/twiddle [unittest arguments]

Synthesis of F (fields, mmax + 1, nlat) is np.fft.irfft(H, n=nphi) * nphi, H the half spectrum with F
along the last axis, zero-padded to nphi // 2 + 1, and Im H[..., 0] = 0; analysis of x
(fields, nlat, nphi) is np.fft.rfft(x)[..., :mmax + 1] with the last two axes swapped.
"""

import os

import numpy as np

import cli_test_common
from cli_test_common import relative_error

# Relative L2 error allowed against numpy's double-precision result: f32 and f64 on the device.
TOLERANCE = {np.float32: 1e-6, np.complex64: 1e-6, np.float64: 1e-12, np.complex128: 1e-12}
REAL = {np.complex64: np.float32, np.complex128: np.float64}
COMPLEX = {np.float32: np.complex64, np.float64: np.complex128}

# Small grids (a few seconds on lavapipe): (leading shape, nlat, nphi, mmax, precision, extra arguments).
# A leading shape of () is a single field, (k,) a batch of k fields.
CASES = [
    ((), 5, 64, 7, "f32", []),
    ((3,), 5, 64, 31, "f64", []),  # mmax at its limit, even nphi
    ((), 5, 64, 31, "f32", ["--radix", "2"]),
    ((2,), 5, 97, 48, "f64", []),  # odd nphi, mmax at its limit
    ((2,), 5, 97, 20, "f32", []),
    ((), 5, 100, 49, "f32", []),  # not a power of two, mmax at its limit
    ((2,), 1, 100, 6, "f64", ["--complex-path"]),  # nlat = 1
    ((), 3, 64, 12, "f32", ["--complex-path", "--radix", "4"]),
    ((2,), 5, 64, 10, "f32", ["--strategy", "dft"]),
    ((), 4, 100, 49, "f64", ["--strategy", "dft"]),
    ((), 1, 1, 0, "f64", []),  # nphi = 1: F_0 alone
]


def random_orders(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


def reference_synthesis(fm, nphi):
    """spat (..., nlat, nphi) of fm (..., mmax + 1, nlat), in f64."""
    f = np.swapaxes(fm.astype(np.complex128), -1, -2)  # (..., nlat, mmax + 1)
    half = np.zeros(f.shape[:-1] + (nphi // 2 + 1,), np.complex128)
    half[..., :f.shape[-1]] = f
    half[..., 0] = half[..., 0].real
    return np.fft.irfft(half, n=nphi, axis=-1) * nphi


def reference_analysis(spat, mmax):
    """fm (..., mmax + 1, nlat) of spat (..., nlat, nphi), in f64."""
    return np.swapaxes(np.fft.rfft(spat.astype(np.float64), axis=-1)[..., :mmax + 1], -1, -2)



class CliTest(cli_test_common.CliTest):

    def run_ok(self, *args):
        """Runs twiddle, expecting success and silence."""
        run = self.twiddle(*args)
        self.assertEqual(run.returncode, 0, f"{args}: {run.stderr}")
        self.assertEqual(run.stdout, "", args)
        self.assertEqual(run.stderr, "", args)

    def synthesize(self, fm, nphi, extra=(), out="spat.npy"):
        fm_path, spat_path = self.path("fm.npy"), self.path(out)
        np.save(fm_path, fm)
        self.run_ok("sht-synth", fm_path, spat_path, "--nphi", str(nphi), *extra)
        return np.load(spat_path)

    def analyze(self, spat, mmax, extra=()):
        spat_path, fm_path = self.path("spat.npy"), self.path("fm.npy")
        np.save(spat_path, spat)
        self.run_ok("sht-analys", spat_path, fm_path, "--mmax", str(mmax), *extra)
        return np.load(fm_path)


class Synthesis(CliTest):
    def check(self, fm, nphi, extra=()):
        spat = self.synthesize(fm, nphi, extra)
        want = reference_synthesis(fm, nphi)
        self.assertEqual(spat.dtype, np.dtype(REAL[fm.dtype.type]))
        self.assertEqual(spat.shape, want.shape)
        self.assertEqual(spat.shape, fm.shape[:-2] + (fm.shape[-1], nphi))
        error = relative_error(spat, want)
        self.assertLessEqual(error, TOLERANCE[fm.dtype.type], f"{fm.dtype} {fm.shape} nphi {nphi} {extra}")

    def test_cases(self):
        for i, (lead, nlat, nphi, mmax, precision, extra) in enumerate(CASES):
            dtype = np.complex64 if precision == "f32" else np.complex128
            with self.subTest(lead=lead, nlat=nlat, nphi=nphi, mmax=mmax, precision=precision, extra=extra):
                # Im F_0 is nonzero: synthesis takes its real part.
                self.check(random_orders(lead + (mmax + 1, nlat), dtype, seed=100 + i), nphi, extra)

    def test_in_place_file(self):
        fm = random_orders((2, 5, 3), np.complex64, seed=150)
        fm_path = self.path("fm.npy")
        np.save(fm_path, fm)
        self.run_ok("sht-synth", fm_path, fm_path, "--nphi", "10")
        spat = np.load(fm_path)
        self.assertEqual((spat.dtype, spat.shape), (np.float32, (2, 3, 10)))
        self.assertLessEqual(relative_error(spat, reference_synthesis(fm, 10)), TOLERANCE[np.float32])
        self.assertEqual(sorted(os.listdir(self.dir)), ["fm.npy"])


class Analysis(CliTest):
    def check(self, spat, mmax, extra=()):
        fm = self.analyze(spat, mmax, extra)
        want = reference_analysis(spat, mmax)
        self.assertEqual(fm.dtype, np.dtype(COMPLEX[spat.dtype.type]))
        self.assertEqual(fm.shape, want.shape)
        self.assertEqual(fm.shape, spat.shape[:-2] + (mmax + 1, spat.shape[-2]))
        error = relative_error(fm, want)
        self.assertLessEqual(error, TOLERANCE[spat.dtype.type], f"{spat.dtype} {spat.shape} mmax {mmax} {extra}")

    def test_cases(self):
        rng = np.random.default_rng(200)
        for lead, nlat, nphi, mmax, precision, extra in CASES:
            dtype = np.float32 if precision == "f32" else np.float64
            with self.subTest(lead=lead, nlat=nlat, nphi=nphi, mmax=mmax, precision=precision, extra=extra):
                self.check(rng.standard_normal(lead + (nlat, nphi)).astype(dtype), mmax, extra)

    def test_round_trip(self):
        # Analysis of synthesis gives nphi F, F_0 made real.
        fm = random_orders((2, 10, 3), np.complex128, seed=250)
        spat = self.synthesize(fm, 37)
        back = self.analyze(spat, 9)
        want = fm.copy()
        want[:, 0, :] = want[:, 0, :].real
        self.assertLessEqual(relative_error(back, 37 * want), 1e-12)


class BatchBelowLimit(CliTest):
    def test_fields_below_mmax_limit_even_nphi(self):
        # A batch of fields with even nphi and mmax below its limit: the half-length transform's
        # rows hold more points than the band-limited spectrum keeps.
        fm = random_orders((2, 4, 3), np.complex64, seed=400)
        spat = self.synthesize(fm, 10)
        self.assertLessEqual(relative_error(spat, reference_synthesis(fm, 10)), TOLERANCE[np.float32])
        back = self.analyze(spat, 3)
        self.assertLessEqual(relative_error(back, reference_analysis(spat, 3)), TOLERANCE[np.complex64])


class Refusals(CliTest):
    def expect_failure(self, args, message, exit_code):
        """Runs twiddle, expecting exit_code, one line on stderr containing `message`, and no new files."""
        before = sorted(os.listdir(self.dir))
        run = self.twiddle(*args)
        self.assertEqual(run.returncode, exit_code, f"{args}: {run.stderr}")
        self.assertEqual(run.stdout, "", args)
        self.assertTrue(run.stderr.endswith("\n"), repr(run.stderr))
        self.assertEqual(run.stderr.count("\n"), 1, repr(run.stderr))
        self.assertIn(message, run.stderr)
        self.assertEqual(sorted(os.listdir(self.dir)), before, f"{args} left files behind")

    def refuse(self, command, x, args, message, exit_code=1):
        x_path = self.path("x.npy")
        np.save(x_path, x)
        self.expect_failure([command, x_path, self.path("y.npy"), *args], message, exit_code)

    def test_synthesis_arrays(self):
        fm = random_orders((4, 5), np.complex64, seed=300)
        nphi = ["--nphi", "16"]
        for x, message in [
            (fm.real.copy(), "has dtype float32; twiddle sht-synth takes complex64 or complex128"),
            (fm.astype(np.clongdouble), "has dtype complex256"),
            (np.zeros((4, 5), np.int32), "has dtype int32"),
            (np.complex64(1), "holds a 0-d array; twiddle sht-synth takes (mmax + 1, nlat)"),
            (fm[0], "holds shape 5 (1 axis)"),
            (fm.reshape(1, 1, 4, 5), "holds shape 1x1x4x5 (4 axes)"),
            (np.zeros((4, 0), np.complex64), "(shape 4x0): the latitudes axis has length 0"),
            (np.zeros((0, 5), np.complex64), "(shape 0x5): the orders (mmax + 1) axis has length 0"),
            (np.zeros((0, 4, 5), np.complex128), "(shape 0x4x5): the axis of fields has length 0"),
            (np.zeros((2, 0, 5), np.complex128), "the orders (mmax + 1) axis has length 0"),
        ]:
            with self.subTest(dtype=x.dtype, shape=x.shape):
                self.refuse("sht-synth", x, nphi, message)

    def test_synthesis_nphi(self):
        fm = random_orders((2, 9, 5), np.complex128, seed=301)  # mmax 8
        for args, message, exit_code in [
            (["--nphi", "16"], "holds orders up to mmax 8, which need nphi > 2 mmax: --nphi 17 or more, got 16", 1),
            (["--nphi", "1"], "--nphi 17 or more, got 1", 1),
            (["--nphi", "0"], "--nphi: '0' is not an integer from 1 to 4294967295", 2),
            (["--nphi", "-17"], "--nphi: '-17' is not an integer from 1 to 4294967295", 2),
            (["--nphi", "17x"], "--nphi: '17x' is not an integer from 1 to 4294967295", 2),
            (["--nphi", "0x11"], "--nphi: '0x11' is not an integer from 1 to 4294967295", 2),
            # Decimal, though CLI11 alone reads a leading zero as octal (016 would be 14).
            (["--nphi", "016"], "--nphi 17 or more, got 16", 1),
            ([], "--nphi is required", 2),
            (["--nphi", "17", "--radix", "3"],
             "--radix: '3' is not 0 (the planner's choice) or a power of two from 2 to 32", 2),
            (["--nphi", "17", "--strategy", "fftw"], "unknown SHT strategy 'fftw' (expected fft or dft)", 2),
            (["--nphi", "17", "--strategy", "dft", "--radix", "4"],
             "--radix and --complex-path apply to --strategy fft only", 2),
            (["--nphi", "17", "--strategy", "dft", "--complex-path"],
             "--radix and --complex-path apply to --strategy fft only", 2),
            # Odd rows always take the complex path: the flag would change nothing.
            (["--nphi", "17", "--complex-path"], "--complex-path applies to even nphi; nphi 17 is odd", 2),
            (["--nphi", "17", "--mmax", "8"], "--mmax", 2),
        ]:
            with self.subTest(args=args):
                self.refuse("sht-synth", fm, args, message, exit_code)

    def test_analysis_arrays(self):
        x = np.random.default_rng(302).standard_normal((4, 16))
        mmax = ["--mmax", "3"]
        for y, message in [
            (x.astype(np.complex64), "has dtype complex64; twiddle sht-analys takes float32 or float64"),
            (x.astype(np.float16), "has dtype float16"),
            (x.astype(np.int64), "has dtype int64"),
            (np.float32(1), "holds a 0-d array; twiddle sht-analys takes (nlat, nphi)"),
            (x[0], "holds shape 16 (1 axis)"),
            (x.reshape(2, 2, 2, 8), "holds shape 2x2x2x8 (4 axes)"),
            (np.zeros((0, 16), np.float32), "(shape 0x16): the latitudes (nlat) axis has length 0"),
            (np.zeros((4, 0), np.float32), "(shape 4x0): the longitudes (nphi) axis has length 0"),
            (np.zeros((0, 4, 16), np.float64), "(shape 0x4x16): the axis of fields has length 0"),
        ]:
            with self.subTest(dtype=y.dtype, shape=y.shape):
                self.refuse("sht-analys", y, mmax, message)

    def test_analysis_mmax(self):
        x = np.random.default_rng(303).standard_normal((2, 3, 16)).astype(np.float32)
        for args, message, exit_code in [
            (["--mmax", "8"], "--mmax 8 needs nphi > 2 mmax, but", 1),
            (["--mmax", "8"], "has nphi 16; mmax can be at most 7", 1),
            (["--mmax", "4294967295"], "mmax can be at most 7", 1),
            (["--mmax", "-1"], "--mmax: '-1' is not an integer from 0 to 4294967295", 2),
            (["--mmax", "4294967296"], "is not an integer from 0 to 4294967295", 2),
            ([], "--mmax is required", 2),
            (["--mmax", "7", "--radix", "64"], "--radix: '64' is not 0 (the planner's choice) or a power of two", 2),
            (["--mmax", "7", "--radix", "6"], "--radix: '6' is not 0", 2),
            (["--mmax", "7", "--strategy", "auto"], "unknown SHT strategy 'auto'", 2),
            (["--mmax", "7", "--nphi", "16"], "--nphi", 2),
        ]:
            with self.subTest(args=args):
                self.refuse("sht-analys", x, args, message, exit_code)
        self.refuse("sht-analys", x[..., :15], ["--mmax", "8"], "has nphi 15; mmax can be at most 7")
        self.refuse("sht-analys", x[..., :15], ["--mmax", "7", "--complex-path"],
                    "--complex-path applies to even nphi; nphi 15 is odd", 2)

    def test_missing_input(self):
        self.expect_failure(["sht-synth", self.path("nothing.npy"), self.path("y.npy"), "--nphi", "8"],
                            "nothing.npy: cannot open: No such file or directory", 1)
        self.expect_failure(["sht-analys", self.path("nothing.npy"), self.path("y.npy"), "--mmax", "1"],
                            "nothing.npy: cannot open: No such file or directory", 1)

    def test_failure_keeps_existing_output(self):
        x_path, y_path = self.path("x.npy"), self.path("y.npy")
        np.save(x_path, np.zeros((3, 8), np.float64))
        with open(y_path, "wb") as f:
            f.write(b"precious")
        self.expect_failure(["sht-analys", x_path, y_path, "--mmax", "4"], "mmax can be at most 3", 1)
        self.expect_failure(["sht-synth", x_path, y_path, "--nphi", "8"], "has dtype float64", 1)
        with open(y_path, "rb") as f:
            self.assertEqual(f.read(), b"precious")


if __name__ == "__main__":
    cli_test_common.main(__doc__)
