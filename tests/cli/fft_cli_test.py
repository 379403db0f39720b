"""Runs `twiddle fft` on .npy files and compares the results with numpy.fft; checks `twiddle info`.

Usage: python3 fft_cli_test.py PATH/TO/twiddle [unittest arguments]
"""

import io
import json
import os
import stat
import subprocess
import threading

import numpy as np

import cli_test_common
from cli_test_common import relative_error

# Relative L2 error allowed against numpy's complex128 result: complex64 in f32, complex128 in f64.
TOLERANCE = {np.complex64: 5e-7, np.complex128: 1e-14}

NORMS = ("backward", "ortho", "forward")
DIRECTIONS = (False, True)  # inverse?


def random_complex64(shape, seed):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(np.complex64)


def reference(x, inverse, norm, axes=None):
    """numpy.fft.fft / ifft along the last axis; with `axes` (twiddle's --axes text), fftn / ifftn."""
    if axes is None:
        transform = np.fft.ifft if inverse else np.fft.fft
        return transform(x.astype(np.complex128), axis=-1, norm=norm)
    transform = np.fft.ifftn if inverse else np.fft.fftn
    listed = None if axes == "all" else [int(a) for a in axes.split(",")]
    return transform(x.astype(np.complex128), axes=listed, norm=norm)



class CliTest(cli_test_common.CliTest):

    def fft(self, x_path, y_path, inverse=False, norm=None, strategy=None, axes=None, extra=()):
        """Runs twiddle fft (with `extra` arguments), expecting success and silence; returns the output."""
        args = ["fft", x_path, y_path, *extra]
        if axes is not None:
            args += ["--axes", axes]
        if inverse:
            args.append("--inverse")
        if norm is not None:
            args += ["--norm", norm]
        if strategy is not None:
            args += ["--strategy", strategy]
        run = self.twiddle(*args)
        self.assertEqual(run.returncode, 0, f"{args}: {run.stderr}")
        self.assertEqual(run.stdout, "", args)
        self.assertEqual(run.stderr, "", args)
        return np.load(y_path)

    def check_transform(self, x, inverse=False, norm="backward", save=np.save, x_name="x.npy", strategy=None,
                        axes=None):
        x_path, y_path = self.path(x_name), self.path("y.npy")
        save(x_path, x)
        y = self.fft(x_path, y_path, inverse, None if norm == "backward" else norm, strategy, axes)
        self.assertEqual(y.dtype, np.dtype(x.dtype).newbyteorder("="))
        self.assertEqual(y.shape, x.shape)
        self.assertTrue(y.flags.c_contiguous)
        error = relative_error(y, reference(x, inverse, norm, axes))
        self.assertLessEqual(error, TOLERANCE[np.dtype(x.dtype).type],
                             f"{x.dtype} shape {x.shape} axes={axes} inverse={inverse} norm={norm}")
        return y


class Transforms(CliTest):
    def test_all_directions_and_norms(self):
        for i, shape in enumerate([(64,), (3, 1024)]):
            for inverse in DIRECTIONS:
                for norm in NORMS:
                    with self.subTest(shape=shape, inverse=inverse, norm=norm):
                        self.check_transform(random_complex64(shape, seed=100 + i), inverse, norm)

    def test_ranks_and_lengths(self):
        shapes = [
            (1,), (2,), (8,), (1024,), (4096,), (65536,), (262144,),
            (4, 1), (5, 2), (3, 8), (7, 4096), (16, 65536),
            (2, 3, 64), (3, 1, 256), (2, 2, 16384),
            (2, 3, 4, 2), (1, 1, 1, 1), (3, 2, 5, 128),
        ]
        combinations = [(inverse, norm) for inverse in DIRECTIONS for norm in NORMS]
        for i, shape in enumerate(shapes):
            inverse, norm = combinations[i % len(combinations)]
            with self.subTest(shape=shape, inverse=inverse, norm=norm):
                self.check_transform(random_complex64(shape, seed=200 + i), inverse, norm)

    def test_other_lengths(self):
        # Mixed radices (one pass, non-uniform stages, two passes), a prime butterfly (17), and
        # lengths with a prime factor above 31 (Rader: 97, 401; Bluestein: 1009 to a prime above
        # 2^16), in f32 and f64.
        shapes = [(3,), (4, 6), (2, 100), (3, 1000), (1, 4095), (2, 10000), (1, 2 * 3 * 5 * 7 * 11 * 13),
                  (5, 17), (2, 97), (3, 401), (1, 1009), (2, 2 * 1031), (1, 65537)]
        combinations = [(inverse, norm) for inverse in DIRECTIONS for norm in NORMS]
        for i, shape in enumerate(shapes):
            inverse, norm = combinations[i % len(combinations)]
            for dtype in (np.complex64, np.complex128):
                with self.subTest(shape=shape, inverse=inverse, norm=norm, dtype=dtype):
                    self.check_transform(random_complex64(shape, seed=500 + i).astype(dtype), inverse, norm)

    def test_dft_strategy(self):
        for i, shape in enumerate([(1,), (3, 16), (2, 100), (1, 1024), (2, 131)]):
            for dtype in (np.complex64, np.complex128):
                with self.subTest(shape=shape, dtype=dtype):
                    self.check_transform(random_complex64(shape, seed=600 + i).astype(dtype), inverse=i % 2 == 1,
                                         strategy="dft")

    def test_portable_and_subgroups_strategies(self):
        # Lengths whose transforms lie in one of lavapipe's subgroups (8 lanes; 64 points, 8
        # invocations) and do not (1024), in both directions, through both exchange strategies.
        for i, shape in enumerate([(4, 64), (2, 1024), (3, 8)]):
            for strategy in ("portable", "subgroups"):
                with self.subTest(shape=shape, strategy=strategy):
                    self.check_transform(random_complex64(shape, seed=700 + i), inverse=i % 2 == 1,
                                         strategy=strategy)

    def test_complex128_in_f64(self):
        for i, shape in enumerate([(1,), (2, 8), (3, 1024), (2, 3, 64), (1, 65536)]):
            x = random_complex64(shape, seed=300 + i).astype(np.complex128)
            x += 1e-9 * random_complex64(shape, seed=400 + i)  # values that complex64 cannot hold
            for inverse in DIRECTIONS:
                for norm in NORMS:
                    self.check_transform(x, inverse, norm)
        big = random_complex64((3, 256), seed=13).astype(">c16")
        self.check_transform(big)

    def test_big_endian_input(self):
        x = random_complex64((3, 512), seed=1).astype(">c8")
        self.check_transform(x, inverse=True, norm="ortho")

    def test_fortran_order_input(self):
        x = np.asfortranarray(random_complex64((4, 6, 32), seed=2))
        self.assertFalse(x.flags.c_contiguous)
        x_path = self.path("x.npy")
        np.save(x_path, x)
        with open(x_path, "rb") as f:
            self.assertIn(b"'fortran_order': True", f.read(128))
        self.check_transform(x)

    def test_big_endian_fortran_input(self):
        x = np.asfortranarray(random_complex64((8, 3, 16), seed=3)).astype(">c8", order="F")
        self.check_transform(x, norm="forward")

    def test_format_version_2(self):
        def save_v2(path, x):
            with open(path, "wb") as f:
                np.lib.format.write_array(f, x, version=(2, 0))

        self.check_transform(random_complex64((5, 256), seed=4), save=save_v2)
        with open(self.path("x.npy"), "rb") as f:
            self.assertEqual(f.read(8), b"\x93NUMPY\x02\x00")

    def test_output_is_numpys_version_1_format(self):
        x_path, y_path = self.path("x.npy"), self.path("y.npy")
        np.save(x_path, random_complex64((2, 16), seed=5))
        self.fft(x_path, y_path)
        with open(y_path, "rb") as f:
            self.assertEqual(f.read(8), b"\x93NUMPY\x01\x00")
            f.seek(0)
            self.assertEqual(np.lib.format.read_magic(f), (1, 0))
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(f)
        self.assertEqual((shape, fortran, dtype), ((2, 16), False, np.dtype("<c8")))

    def test_in_place_file(self):
        x = random_complex64((4, 128), seed=6)
        x_path = self.path("x.npy")
        np.save(x_path, x)
        y = self.fft(x_path, x_path, inverse=True)
        self.assertLessEqual(relative_error(y, reference(x, True, "backward")), TOLERANCE[np.complex64])
        self.assertEqual(sorted(os.listdir(self.dir)), ["x.npy"])

    def test_empty_batch(self):
        # numpy transforms an empty batch into an empty array; so does twiddle, even for a length
        # it could not transform.
        for shape in [(0, 8), (3, 0, 12)]:
            with self.subTest(shape=shape):
                x_path, y_path = self.path("x.npy"), self.path("y.npy")
                np.save(x_path, np.zeros(shape, np.complex64))
                y = self.fft(x_path, y_path)
                self.assertEqual((y.dtype, y.shape), (np.complex64, shape))

    def test_axes(self):
        # numpy.fft.fftn / ifftn over --axes: 2D and 3D, odd and length-1 extents, negative axes,
        # subsets of the axes in any order, and prime extents (17: a butterfly; 97: Rader's
        # algorithm along a strided axis).
        cases = [
            ((8, 16), "0,1", np.complex64, False, "backward"),
            ((6, 10, 12), "0,2", np.complex128, True, "ortho"),
            ((5, 1, 9), "-1,-3", np.complex64, True, "forward"),
            ((3, 17, 4), "1", np.complex128, False, "forward"),
            ((97, 2), "all", np.complex64, True, "backward"),
            ((4, 7, 3), "-2", np.complex64, False, "ortho"),
            ((1, 1, 1), "all", np.complex128, False, "backward"),
            ((2, 3, 4, 5), "3,1", np.complex64, True, "ortho"),
            ((16, 32, 8), "all", np.complex128, False, "ortho"),
        ]
        for i, (shape, axes, dtype, inverse, norm) in enumerate(cases):
            with self.subTest(shape=shape, axes=axes, dtype=dtype, inverse=inverse, norm=norm):
                self.check_transform(random_complex64(shape, seed=700 + i).astype(dtype), inverse, norm,
                                     axes=axes)

    def test_random_shapes_and_axes(self):
        rng = np.random.default_rng(800)
        extents = [1, 2, 3, 5, 6, 8, 12, 16, 17]
        for i in range(6):
            shape = tuple(int(n) for n in rng.choice(extents, size=2 + i % 2))
            count = int(rng.integers(1, len(shape) + 1))
            axes = rng.choice(len(shape), size=count, replace=False)
            axes = ",".join(str(int(a) - len(shape) if rng.integers(2) else int(a)) for a in axes)
            dtype = (np.complex64, np.complex128)[i % 2]
            inverse, norm = i % 3 == 1, NORMS[i % 3]
            with self.subTest(shape=shape, axes=axes, dtype=dtype, inverse=inverse, norm=norm):
                self.check_transform(random_complex64(shape, seed=810 + i).astype(dtype), inverse, norm,
                                     axes=axes)

    def test_axes_dft_strategy(self):
        cases = [((6, 5, 4), "0,2", np.complex64), ((3, 8), "all", np.complex128)]
        for i, (shape, axes, dtype) in enumerate(cases):
            with self.subTest(shape=shape, axes=axes, dtype=dtype):
                self.check_transform(random_complex64(shape, seed=900 + i).astype(dtype), inverse=i == 1,
                                     strategy="dft", axes=axes)

    def test_axes_in_place_file(self):
        x = random_complex64((6, 4, 10), seed=910)
        x_path = self.path("x.npy")
        np.save(x_path, x)
        y = self.fft(x_path, x_path, inverse=True, axes="-3,-1")
        self.assertLessEqual(relative_error(y, reference(x, True, "backward", "-3,-1")), TOLERANCE[np.complex64])
        self.assertEqual(sorted(os.listdir(self.dir)), ["x.npy"])

    def test_axes_empty_batch(self):
        # An axis of length 0 that is not transformed: numpy returns an empty array, and so does
        # twiddle, whatever the transformed extents.
        for shape, axes in [((0, 8), "1"), ((3, 0, 12), "0,2"), ((3, 0, 65537), "-1")]:
            with self.subTest(shape=shape, axes=axes):
                x_path, y_path = self.path("x.npy"), self.path("y.npy")
                np.save(x_path, np.zeros(shape, np.complex128))
                y = self.fft(x_path, y_path, axes=axes)
                self.assertEqual((y.dtype, y.shape), (np.complex128, shape))


class RealTransforms(CliTest):
    """twiddle fft --real against numpy's rfft, irfft, rfftn and irfftn."""

    def real(self, x, inverse=False, norm=None, axes=None, n=None):
        x_path, y_path = self.path("x.npy"), self.path("y.npy")
        np.save(x_path, x)
        extra = ["--real"] + (["--n", str(n)] if n is not None else [])
        return self.fft(x_path, y_path, inverse, norm, axes=axes, extra=extra)

    def check(self, x, inverse=False, norm="backward", axes=None, n=None):
        y = self.real(x, inverse, None if norm == "backward" else norm, axes, n)
        listed = None if axes in (None, "all") else [int(a) for a in axes.split(",")]
        wide = x.astype(np.complex128 if inverse else np.float64)
        if axes is None:
            want = (np.fft.irfft(wide, n=n, norm=norm) if inverse else np.fft.rfft(wide, norm=norm))
        elif inverse:
            s = None
            if n is not None:
                s = [x.shape[a] for a in (listed or range(x.ndim))]
                s[-1] = n
            want = np.fft.irfftn(wide, s=s, axes=listed, norm=norm)
        else:
            want = np.fft.rfftn(wide, axes=listed, norm=norm)
        single = x.dtype in (np.float32, np.complex64)
        expected_dtype = (np.float32 if single else np.float64) if inverse else (
            np.complex64 if single else np.complex128)
        self.assertEqual(y.dtype, np.dtype(expected_dtype))
        self.assertEqual(y.shape, want.shape)
        error = relative_error(y.astype(np.complex128), want.astype(np.complex128))
        self.assertLessEqual(error, 1e-6 if single else 1e-14, f"{x.dtype} {x.shape} axes={axes} n={n}")
        return y

    def test_rfft_and_irfft(self):
        rng = np.random.default_rng(40)
        for i, shape in enumerate([(1,), (2,), (7,), (3, 16), (2, 100), (4, 1000), (1, 97), (2, 4096)]):
            norm = NORMS[i % 3]
            for dtype in (np.float32, np.float64):
                with self.subTest(shape=shape, dtype=dtype, norm=norm):
                    x = rng.standard_normal(shape).astype(dtype)
                    spectrum = self.check(x, norm=norm)
                    # irfft of the spectrum, with the length that gives x back for odd lengths.
                    self.check(spectrum, inverse=True, norm=norm, n=shape[-1])

    def test_irfft_lengths(self):
        rng = np.random.default_rng(41)
        x = (rng.standard_normal((3, 9)) + 1j * rng.standard_normal((3, 9))).astype(np.complex64)
        for n in (None, 16, 17, 5, 30):  # the default 2 (m - 1), and cropping and padding to n / 2 + 1
            with self.subTest(n=n):
                self.check(x, inverse=True, n=n)

    def test_rfftn_and_irfftn(self):
        rng = np.random.default_rng(42)
        cases = [((8, 16), "all"), ((5, 6, 7), "all"), ((4, 9, 6), "0,2"), ((6, 10), "1,0"), ((3, 5, 8), "-2"),
                 ((2, 32, 32), "-2,-1")]
        for shape, axes in cases:
            with self.subTest(shape=shape, axes=axes):
                x = rng.standard_normal(shape).astype(np.float32)
                spectrum = self.check(x, axes=axes)
                self.check(spectrum, inverse=True, axes=axes)
                listed = list(range(len(shape))) if axes == "all" else [int(a) % len(shape) for a in axes.split(",")]
                self.check(spectrum.astype(np.complex128), inverse=True, axes=axes, n=shape[listed[-1]])

    def test_refusals(self):
        x_path, y_path = self.path("x.npy"), self.path("y.npy")
        np.save(x_path, np.zeros((2, 8), np.complex64))
        for args, message, exit_code in [
            (["--real"], "has dtype complex64; a real transform takes float32 or float64", 1),
            (["--n", "8"], "--n sets the output length of an inverse real transform", 2),
        ]:
            run = self.twiddle("fft", x_path, y_path, *args)
            self.assertEqual(run.returncode, exit_code, args)
            self.assertIn(message, run.stderr)
            self.assertFalse(os.path.exists(y_path))
        np.save(x_path, np.zeros((2, 8), np.float32))
        run = self.twiddle("fft", x_path, y_path, "--real", "--inverse")
        self.assertEqual(run.returncode, 1)
        self.assertIn("an inverse real transform takes a complex64 or complex128 half spectrum", run.stderr)
        np.save(x_path, np.zeros((2, 1), np.complex64))
        run = self.twiddle("fft", x_path, y_path, "--real", "--inverse")
        self.assertEqual(run.returncode, 1)
        self.assertIn("give --n", run.stderr)
        self.assertFalse(os.path.exists(y_path))


class Info(CliTest):
    def info(self, *args):
        run = self.twiddle("info", *args)
        self.assertEqual(run.returncode, 0, f"{args}: {run.stderr}")
        return json.loads(run.stdout)["plan"]

    def test_shape(self):
        plan = self.info("--shape", "64x48")
        self.assertEqual((plan["shape"], plan["axes"]), ([64, 48], [0, 1]))
        self.assertEqual((plan["length"], plan["batch"]), (3072, 1))
        self.assertEqual([d["n"] for d in plan["dims"]], [64, 48])
        self.assertEqual(plan["batch_dims"], [])
        self.assertIn("64 x 48", plan["summary"])
        self.assertIn("dim 0", plan["summary"])
        self.assertIn("dim 1", plan["summary"])
        self.assertEqual(sorted({p["dim"] for p in plan["passes"]}), [0, 1])
        for p in plan["passes"]:
            self.assertIn("vectorized", p)
            self.assertIn("batch_dims", p)

    def test_real_inverse(self):
        # c2r 64 joins in four invocations per row (radix 8), r2c 64 splits in one: the inverse
        # has kernels of its own.
        self.assertEqual(self.info("--n", "64", "--real")["summary"], "r2c 64 = half 32 = 32 with split in 1 pass")
        plan = self.info("--n", "64", "--real", "--inverse")
        self.assertEqual(plan["summary"], "c2r 64 = half 32 = 4 x 8 with join in 1 pass")
        self.assertEqual(plan["transform"], "c2r")
        plan = self.info("--shape", "8x64", "--real", "--inverse")
        self.assertEqual(plan["transform"], "c2r")
        self.assertIn("half 32 = 4 x 8 with join", plan["summary"])

    def test_strategy_in_support(self):
        # 64 points (8 invocations, lavapipe's subgroup size) has one exchange that subgroup
        # shuffles can take: under subgroups it does; under auto it stays eligible (more than one
        # lane swap) and the kernel waits on subgroup barriers; under portable nothing uses subgroups.
        for strategy, expected, stages in (("subgroups", "subgroups", 1), ("auto", "auto", 0),
                                           ("portable", "portable", 0)):
            run = self.twiddle("info", "--n", "64", "--strategy", strategy)
            self.assertEqual(run.returncode, 0, run.stderr)
            support = json.loads(run.stdout)["support"]
            self.assertTrue(support["supported"], support)
            self.assertEqual(support["strategy"], expected, strategy)
            self.assertEqual(support["subgroup_stages"], stages, strategy)
            self.assertEqual(support["subgroup_eligible_stages"], 1, strategy)

    def test_shape_and_axes(self):
        plan = self.info("--shape", "8x6x4", "--axes", "0,-1")
        self.assertEqual((plan["shape"], plan["axes"]), ([8, 6, 4], [0, -1]))
        self.assertEqual((plan["length"], plan["batch"]), (32, 6))
        self.assertEqual([d["n"] for d in plan["dims"]], [8, 4])
        self.assertEqual([(d["n"], d["in_stride"]) for d in plan["batch_dims"]], [(6, 4)])

    def test_length(self):
        plan = self.info("--n", "1024", "--batch", "3")
        self.assertEqual((plan["length"], plan["batch"]), (1024, 3))
        self.assertEqual({p["dim"] for p in plan["passes"]}, {0})
        self.assertEqual({p["algorithm"] for p in plan["passes"]}, {"fft"})

    def test_looping_kernels(self):
        # Enough transforms of 1000 = 10 x 10 x 10 for workgroups to loop over tiles, and two
        # twiddled stages: their twiddles stay in registers. A few transforms: no looping.
        many = self.info("--n", "1000", "--batch", "10000")["passes"]
        self.assertEqual([(p["prefetch"], p["twiddles_in_registers"]) for p in many], [(True, True)])
        few = self.info("--n", "1000", "--batch", "3")["passes"]
        self.assertEqual([(p["prefetch"], p["twiddles_in_registers"]) for p in few], [(False, False)])
        # The passes of a multi-pass plan sweep their tiles forward and backward in turn.
        two = self.info("--n", "65536", "--batch", "4")["passes"]
        self.assertEqual([p["tile_order"] for p in two], ["forward", "backward"])
        self.assertEqual([p["tile_order"] for p in many], ["interleaved"])

    def test_algorithm(self):
        # 37 - 1 = 36 takes Rader's algorithm; 83 - 1 = 2 x 41 leaves 83 to Bluestein's.
        rader = self.info("--n", "37")
        self.assertEqual([p["algorithm"] for p in rader["passes"]], ["rader"])
        self.assertIn("Rader", rader["summary"])
        bluestein = self.info("--n", "83")
        self.assertEqual({p["algorithm"] for p in bluestein["passes"]}, {"bluestein"})
        self.assertIn("Bluestein", bluestein["summary"])


class Refusals(CliTest):
    def expect_failure(self, args, message, exit_code=None):
        """Runs twiddle, expecting one line on stderr containing `message` and no new files."""
        before = sorted(os.listdir(self.dir))
        run = self.twiddle(*args)
        self.assertNotEqual(run.returncode, 0, args)
        if exit_code is not None:
            self.assertEqual(run.returncode, exit_code, f"{args}: {run.stderr}")
        self.assertEqual(run.stdout, "", args)
        self.assertTrue(run.stderr.endswith("\n"), repr(run.stderr))
        self.assertEqual(run.stderr.count("\n"), 1, repr(run.stderr))
        self.assertIn(message, run.stderr)
        self.assertEqual(sorted(os.listdir(self.dir)), before, f"{args} left files behind")
        return run.stderr

    def refuse_array(self, x, message):
        x_path = self.path("x.npy")
        np.save(x_path, x)
        self.expect_failure(["fft", x_path, self.path("y.npy")], message, exit_code=1)

    def test_missing_input(self):
        self.expect_failure(["fft", self.path("nothing.npy"), self.path("y.npy")],
                            "nothing.npy: cannot open: No such file or directory", exit_code=1)

    def test_truncated_input(self):
        x_path = self.path("x.npy")
        np.save(x_path, random_complex64((4, 64), seed=7))
        with open(x_path, "r+b") as f:
            f.truncate(os.path.getsize(x_path) - 8)
        self.expect_failure(["fft", x_path, self.path("y.npy")], "x.npy: truncated", exit_code=1)

    def test_trailing_bytes(self):
        x_path = self.path("x.npy")
        np.save(x_path, random_complex64((4, 64), seed=8))
        with open(x_path, "ab") as f:
            f.write(b"\0")
        self.expect_failure(["fft", x_path, self.path("y.npy")], "x.npy: the header", exit_code=1)

    def test_foreign_file(self):
        x_path = self.path("x.txt")
        with open(x_path, "w") as f:
            f.write("1 2 3 4\n")
        self.expect_failure(["fft", x_path, self.path("y.npy")], "x.txt: not a .npy file", exit_code=1)

    def test_usage_errors(self):
        x_path, y_path = self.path("x.npy"), self.path("y.npy")
        np.save(x_path, random_complex64((8,), seed=9))
        self.expect_failure(["fft", x_path, y_path, "--bogus"], "--bogus", exit_code=2)
        self.expect_failure(["fft", x_path], "OUT", exit_code=2)
        self.expect_failure(["fft", x_path, y_path, "--norm", "sideways"], "sideways", exit_code=2)
        self.expect_failure(["fft", x_path, y_path, "--norm"], "--norm", exit_code=2)
        self.expect_failure(["fft", x_path, y_path, "--strategy", "fftw"], "strategy must be auto, portable, subgroups or dft",
                            exit_code=2)
        self.expect_failure(["fft", x_path, y_path, "extra.npy"], "extra.npy", exit_code=2)
        self.expect_failure(["ftt", x_path, y_path], "unknown command 'ftt'", exit_code=2)
        self.expect_failure([], "A subcommand is required", exit_code=2)

    def test_unsupported_dtypes(self):
        x = random_complex64((2, 16), seed=10)
        self.refuse_array(x.real.copy(), "has dtype float32; twiddle fft transforms complex64 and "
                                         "complex128")
        self.refuse_array(x.real.astype(np.float64), "has dtype float64")
        self.refuse_array(x.astype(np.clongdouble), "has dtype complex256")
        self.refuse_array(np.arange(16, dtype=np.int32), "has dtype int32")
        self.refuse_array(np.array(["a", "b"]), "dtype '<U1' is not supported")

    def test_unsupported_shapes(self):
        self.refuse_array(np.zeros((4, 0), np.complex64), "last axis of length 0")
        self.refuse_array(np.complex64(1 + 2j), "0-d array")

    def test_bad_axes(self):
        x_path, y_path = self.path("x.npy"), self.path("y.npy")
        np.save(x_path, random_complex64((4, 6, 8), seed=15))
        for axes, message in [("0,0", "--axes 0,0: axis 0 is repeated"),
                              ("0,-3", "--axes 0,-3: axis -3 repeats axis 0"),
                              ("3", "axis 3 is out of range for 3 axes"),
                              ("1,-4", "axis -4 is out of range for 3 axes")]:
            with self.subTest(axes=axes):
                self.expect_failure(["fft", x_path, y_path, "--axes", axes], message, exit_code=1)
        for shape, axes in [((3, 0, 4), "1"), ((3, 0, 4), "all"), ((5, 0), "-1,0")]:
            with self.subTest(shape=shape, axes=axes):
                np.save(x_path, np.zeros(shape, np.complex64))
                self.expect_failure(["fft", x_path, y_path, "--axes", axes],
                                    f"(shape {'x'.join(map(str, shape))}): --axes {axes}: axis 1 has length 0",
                                    exit_code=1)
        np.save(x_path, np.complex64(1 + 2j))
        self.expect_failure(["fft", x_path, y_path, "--axes", "all"], "0-d array", exit_code=1)

    def test_axes_usage_errors(self):
        x_path, y_path = self.path("x.npy"), self.path("y.npy")
        np.save(x_path, random_complex64((4, 8), seed=16))
        for axes in ["a", "0,,1", "1.5", "0;1", "all,0", "0 1", "99999999999"]:
            with self.subTest(axes=axes):
                self.expect_failure(["fft", x_path, y_path, "--axes", axes], f"'{axes}' is not a list of axes",
                                    exit_code=2)
        self.expect_failure(["fft", x_path, y_path, "--axes", ""], "the list of axes is empty", exit_code=2)
        self.expect_failure(["fft", x_path, y_path, "--axes"], "--axes", exit_code=2)

    def test_info_usage_errors(self):
        self.expect_failure(["info", "--n", "64", "--shape", "8x8"], "--n excludes --shape", exit_code=2)
        self.expect_failure(["info", "--axes", "0"], "--axes requires --shape", exit_code=2)
        self.expect_failure(["info", "--n", "64", "--inverse"], "--inverse requires --real", exit_code=2)
        self.expect_failure(["info", "--shape", "8x0"], "shape '8x0'", exit_code=2)
        self.expect_failure(["info", "--shape", "8x8", "--axes", "2"],
                            "info (shape 8x8): --axes: axis 2 is out of range for 2 axes (-2 to 1)", exit_code=2)
        self.expect_failure(["info", "--shape", "8x8", "--axes", "0,-2"],
                            "info (shape 8x8): --axes: axis -2 repeats axis 0", exit_code=2)
        self.expect_failure(["info", "--n", "1000", "--max-pass-length", "3"],
                            "--max-pass-length: '3' is not 0 (the device limit) or a power of two", exit_code=2)

    def test_usage_errors_of_option_combinations(self):
        # Found after parsing, before any input is read or the device is started: exit 2 as the
        # parser's own.
        x_path, y_path = self.path("x.npy"), self.path("y.npy")
        np.save(x_path, random_complex64((8,), seed=17))
        self.expect_failure(["fft", self.path("missing.npy"), y_path, "--n", "5"],
                            "--n sets the output length of an inverse real transform: it needs --real --inverse",
                            exit_code=2)
        self.expect_failure(["fft", x_path, y_path, "--mpi", "--strategy", "dft"],
                            "--strategy does not apply to --mpi", exit_code=2)
        self.expect_failure(["tune"], "tune: nothing to do", exit_code=2)
        for args, message in ((["--max-radix", "3"], "--max-radix: '3' is not 0 (the planner's choice) or a power of two from 2 to 32"),
                              (["--max-radix=-1"], "--max-radix: '-1' is not 0"),
                              (["--workgroup", "7"], "--workgroup: '7' is not 0 (auto) or a power of two"),
                              (["--columns", "12"], "--columns: '12' is not 0 (auto) or a power of two"),
                              (["--max-pass-length", "1"], "--max-pass-length: '1' is not 0")):
            with self.subTest(args=args):
                self.expect_failure(["bench", "--n", "64", *args], message, exit_code=2)
        self.expect_failure(["bench", "--sht", "8x32x16"],
                            "--sht case '8x32x16': sht::Grid.mmax must be below nphi / 2", exit_code=2)

    def test_unwritable_outputs_are_refused_before_the_work(self):
        # Each refused before the transform or benchmark runs: nothing on stdout, no file made.
        x_path = self.path("x.npy")
        np.save(x_path, random_complex64((8,), seed=18))
        missing = self.path("no/such/dir")
        for args in (["fft", x_path, missing + "/y.npy"], ["convolve", x_path, x_path, missing + "/y.npy"],
                     ["bench", "--n", "64", "--out", missing + "/b.csv"],
                     ["bench", "--compare", "--n", "16", "--plot", missing + "/chart"],
                     ["tune", "--list", "--export", missing + "/t.txt"]):
            with self.subTest(args=args):
                self.expect_failure(args, f"cannot write in {missing}: No such file or directory", exit_code=1)

    def test_counts_out_of_range(self):
        # Lengths and counts are decimal integers in range (CLI11 alone reads -5 as 2^64 - 5).
        x_path, y_path = self.path("x.npy"), self.path("y.npy")
        np.save(x_path, np.ones((4, 1), np.complex64))
        for n in ["-5", "0", "", "8abc", "18446744073709551615", "18446744073709551616", "4294967296"]:
            with self.subTest(n=n):
                self.expect_failure(["fft", x_path, y_path, "--real", "--inverse", "--n", n],
                                    f"--n: '{n}' is not an integer from 1 to 4294967295", exit_code=2)
        for args in (["info", "--n", "0"], ["info", "--n", "8", "--batch=-1"], ["bench", "--n", "0"],
                     ["tune", "--n=-1"]):
            with self.subTest(args=args):
                self.expect_failure(args, "is not an integer from", exit_code=2)
        for option in ("--shapes", "--convolve"):
            self.expect_failure(["bench", option, "4294967296x4294967296"], "has more than 2^60 elements",
                                exit_code=2)
        for case in ("4x16x99999999999999999999999", "abc", "0x8x3", "4x16x"):
            with self.subTest(sht=case):
                self.expect_failure(["bench", "--sht", case], f"--sht case '{case}' is not NLATxNPHIxMMAX",
                                    exit_code=2)

    def test_counts_are_decimal(self):
        # A leading zero is a decimal digit, as in a shape: CLI11 alone read "010" as octal 8.
        x_path, y_path = self.path("x.npy"), self.path("y.npy")
        spectrum = np.fft.rfft(random_complex64((10,), seed=31).real).astype(np.complex64)
        np.save(x_path, spectrum)
        run = self.twiddle("fft", x_path, y_path, "--real", "--inverse", "--n", "010")
        self.assertEqual(run.returncode, 0, run.stderr)
        expected = np.fft.irfft(spectrum.astype(np.complex128), n=10)
        self.assertLess(relative_error(np.load(y_path), expected), 1e-6)
        run = self.twiddle("info", "--n", "08", "--batch", "010")
        self.assertEqual(run.returncode, 0, run.stderr)
        plan = json.loads(run.stdout)["plan"]
        self.assertEqual((plan["length"], plan["batch"]), (8, 10))
        os.remove(y_path)
        for args in (["bench", "--total", "0x10"], ["bench", "--reps", "1e3"], ["tune", "--n", "0x10"]):
            with self.subTest(args=args):
                self.expect_failure(args, "is not an integer from", exit_code=2)
        for value in ("nan", "0x1", " 0", "-1", "1e999", "inf"):
            with self.subTest(warmup=value):
                self.expect_failure(["bench", "--warmup", value], f"--warmup: '{value}' is not a number from 0 to 60",
                                    exit_code=2)
        for value in ("0", "-1", "nan", "inf", "+1"):
            with self.subTest(max_error=value):
                self.expect_failure(["bench", "--max-error", value],
                                    f"--max-error: '{value}' is not a number over 0", exit_code=2)

    def test_irfft_output_no_buffer_holds(self):
        # Refused before anything is allocated or written (such an --n once wrapped a size to 0).
        x_path, y_path = self.path("x.npy"), self.path("y.npy")
        np.save(x_path, np.ones((4, 1), np.complex64))
        self.expect_failure(["fft", x_path, y_path, "--real", "--inverse", "--n", "4294967295"],
                            "over the 2^31 - 1 points a dim may have", exit_code=1)
        self.expect_failure(["fft", x_path, y_path, "--real", "--inverse", "--n", "1000000000"],
                            "exceeds the device's maxStorageBufferRange", exit_code=1)

    def test_output_through_links(self):
        x_path = self.path("x.npy")
        x = random_complex64((4, 8), seed=21)
        np.save(x_path, x)
        # A link to a missing file in a directory that exists makes that file, and stays a link.
        os.mkdir(self.path("d"))
        os.symlink("d/y.npy", self.path("link.npy"))
        run = self.twiddle("fft", x_path, self.path("link.npy"))
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertTrue(os.path.islink(self.path("link.npy")))
        self.assertLess(relative_error(np.load(self.path("d/y.npy")), np.fft.fft(x.astype(np.complex128))), 1e-6)
        # One into a directory that does not exist is refused, and left as it was.
        os.symlink("/nonexistent/dir/y.npy", self.path("dangling.npy"))
        self.expect_failure(["fft", x_path, self.path("dangling.npy")], "No such file or directory", exit_code=1)
        self.assertEqual(os.readlink(self.path("dangling.npy")), "/nonexistent/dir/y.npy")

    def test_output_name_of_255_bytes(self):
        x_path, y_path = self.path("x.npy"), self.path("b" * 251 + ".npy")
        np.save(x_path, random_complex64((8,), seed=22))
        run = self.twiddle("fft", x_path, y_path)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(sorted(os.listdir(self.dir)), sorted(["x.npy", os.path.basename(y_path)]))

    def test_control_characters_are_escaped(self):
        # A message that quotes a newline back stays on one line.
        run = subprocess.run([cli_test_common.TWIDDLE, "info"], capture_output=True, text=True, timeout=120,
                             env=dict(os.environ, TWIDDLE_DEVICE="a\nb"))
        self.assertEqual(run.returncode, 1)
        self.assertEqual(run.stderr, "twiddle: error: no Vulkan device name contains 'a\\nb'\n")

    def test_output_in_missing_directory(self):
        x_path = self.path("x.npy")
        np.save(x_path, random_complex64((8,), seed=12))
        self.expect_failure(["fft", x_path, self.path("no/such/dir/y.npy")], "y.npy: cannot write in",
                            exit_code=1)

    def test_output_is_a_directory(self):
        x_path = self.path("x.npy")
        np.save(x_path, random_complex64((8,), seed=13))
        os.mkdir(self.path("out"))
        self.expect_failure(["fft", x_path, self.path("out")], "out: cannot write: it is a directory", exit_code=1)
        self.assertEqual(os.listdir(self.path("out")), [])

    def test_output_to_a_fifo(self):
        # A pipe (as /dev/stdout, or a device as /dev/null) is written in place, as a shell's
        # redirection would: renaming a file over it replaced the node.
        x_path, fifo = self.path("x.npy"), self.path("fifo")
        x = random_complex64((3, 16), seed=15)
        np.save(x_path, x)
        os.mkfifo(fifo)
        received = []
        reader = threading.Thread(target=lambda: received.append(open(fifo, "rb").read()), daemon=True)
        reader.start()
        run = self.twiddle("fft", x_path, fifo)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertTrue(stat.S_ISFIFO(os.stat(fifo).st_mode))
        reader.join(timeout=60)
        self.assertEqual(len(received), 1)
        y = np.load(io.BytesIO(received[0]))
        self.assertLess(relative_error(y, np.fft.fft(x.astype(np.complex128))), 1e-6)

    def test_output_to_an_open_descriptor(self):
        # /dev/stdout and /dev/fd/N are the open streams themselves, written at their positions:
        # renaming a file over the one the shell opened dropped what `>>` and the commands before
        # had put there.
        x_path, log = self.path("x.npy"), self.path("log")
        x = random_complex64((2, 8), seed=17)
        np.save(x_path, x)
        with open(log, "wb") as f:
            f.write(b"KEEP")
        with open(log, "ab") as out:
            run = subprocess.run([cli_test_common.TWIDDLE, "fft", x_path, "/dev/stdout"], stdout=out,
                                 stderr=subprocess.PIPE, text=True, timeout=120)
        self.assertEqual(run.returncode, 0, run.stderr)
        with open(log, "ab") as out:
            out.write(b"MORE")
            out.flush()
            # However the descriptor directory is spelled.
            run = subprocess.run([cli_test_common.TWIDDLE, "fft", "--inverse", x_path,
                                  f"/proc/thread-self//fd/{out.fileno()}"],
                                 pass_fds=(out.fileno(),), stderr=subprocess.PIPE, text=True, timeout=120)
        self.assertEqual(run.returncode, 0, run.stderr)
        with open(log, "rb") as f:
            self.assertEqual(f.read(4), b"KEEP")
            forward = np.load(f)
            self.assertEqual(f.read(4), b"MORE")
            inverse = np.load(f)
            self.assertEqual(f.read(), b"")
        wide = x.astype(np.complex128)
        self.assertLess(relative_error(forward, np.fft.fft(wide)), TOLERANCE[np.complex64])
        self.assertLess(relative_error(inverse, np.fft.ifft(wide)), TOLERANCE[np.complex64])
        # A descriptor open only for reading is refused before the work.
        with open(x_path, "rb") as read_only:
            fd = read_only.fileno()
            run = subprocess.run([cli_test_common.TWIDDLE, "fft", x_path, f"/dev/fd/{fd}"], pass_fds=(fd,),
                                 capture_output=True, text=True, timeout=120)
        self.assertEqual(run.returncode, 1)
        self.assertEqual(run.stderr, f"twiddle: error: /dev/fd/{fd}: cannot write: descriptor {fd} is not open "
                         "for writing\n")
        np.testing.assert_array_equal(np.load(x_path), x)

    def test_output_in_a_directory_the_user_may_not_write_in(self):
        # The temporary file needs the directory's write permission, for a new file and for one
        # it replaces: refused before the work, with the directory named. Root may write in any
        # directory, so as root the command runs as nobody.
        x_path, locked = self.path("x.npy"), self.path("locked")
        np.save(x_path, random_complex64((8,), seed=18))
        os.mkdir(locked)
        with open(os.path.join(locked, "y.npy"), "wb") as f:
            f.write(b"precious")
        os.chmod(os.path.join(locked, "y.npy"), 0o666)
        os.chmod(locked, 0o555)
        as_user = []
        if os.geteuid() == 0:
            os.chmod(self.dir, 0o755)
            as_user = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
        for name in ("new.npy", "y.npy"):
            out = os.path.join(locked, name)
            run = subprocess.run([*as_user, cli_test_common.TWIDDLE, "fft", x_path, out], capture_output=True,
                                 text=True, timeout=120, env=dict(os.environ, TWIDDLE_CACHE_DIR="off"))
            self.assertEqual(run.returncode, 1, run.stderr)
            self.assertEqual(run.stderr, f"twiddle: error: {out}: cannot write in {locked}: Permission denied\n")
        self.assertEqual(os.listdir(locked), ["y.npy"])
        with open(os.path.join(locked, "y.npy"), "rb") as f:
            self.assertEqual(f.read(), b"precious")
        os.chmod(locked, 0o755)

    def test_read_only_output_is_refused(self):
        # As with a shell's redirection, a file the user may not write stays as it was (renaming
        # over it needs only the directory's permission). Root may write any file, so as root the
        # command runs as nobody.
        x_path, y_path = self.path("x.npy"), self.path("y.npy")
        np.save(x_path, random_complex64((8,), seed=16))
        with open(y_path, "wb") as f:
            f.write(b"precious")
        os.chmod(y_path, 0o444)
        as_user = []
        if os.geteuid() == 0:
            os.chmod(self.dir, 0o777)
            as_user = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
        run = subprocess.run([*as_user, cli_test_common.TWIDDLE, "fft", x_path, y_path], capture_output=True,
                             text=True, timeout=120, env=dict(os.environ, TWIDDLE_CACHE_DIR="off"))
        self.assertEqual(run.returncode, 1, run.stderr)
        self.assertEqual(run.stderr, f"twiddle: error: {y_path}: cannot write: Permission denied\n")
        with open(y_path, "rb") as f:
            self.assertEqual(f.read(), b"precious")
        self.assertEqual(sorted(os.listdir(self.dir)), ["x.npy", "y.npy"])

    def test_failure_keeps_existing_output(self):
        x_path, y_path = self.path("x.npy"), self.path("y.npy")
        np.save(x_path, random_complex64((1, 65537), seed=14))
        with open(y_path, "wb") as f:
            f.write(b"precious")
        self.expect_failure(["fft", x_path, y_path, "--strategy", "dft"], "direct sum takes lengths up to 65536",
                            exit_code=1)
        with open(y_path, "rb") as f:
            self.assertEqual(f.read(), b"precious")


if __name__ == "__main__":
    cli_test_common.main(__doc__)
