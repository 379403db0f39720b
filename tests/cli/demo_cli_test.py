"""Runs `twiddle demo` on the default device: the pictures decode (PNG, and the animation as APNG
with a frame per pass), are the right size and are not blank; the saved pattern is numpy's fft2 of
the gap with its middle at the corner; the files an earlier run wrote that a run does not write
go, and no others; bad arguments fail with one line and write nothing.

Usage: python3 demo_cli_test.py PATH/TO/twiddle [unittest arguments]
"""

import os
import resource
import signal
import struct
import subprocess
import zlib

import numpy as np

import cli_test_common


def png_chunks(data):
    """The (type, payload) chunks of a PNG file, each CRC checked."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature"
    chunks, at = [], 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind = data[at + 4:at + 8]
        payload = data[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        assert zlib.crc32(kind + payload) == crc, f"bad CRC in {kind}"
        chunks.append((kind.decode("ascii"), payload))
        at += 12 + length
    assert chunks[-1][0] == "IEND"
    return chunks


def unfilter(raw, width, height, bpp=3):
    """Pixels (height, width, 3) from decompressed scanlines with any of PNG's five filters."""
    stride = width * bpp
    out = np.zeros((height, stride), dtype=np.uint8)
    prev = np.zeros(stride, dtype=np.int32)
    at = 0
    for y in range(height):
        kind = raw[at]
        line = np.frombuffer(raw[at + 1:at + 1 + stride], dtype=np.uint8).astype(np.int32)
        at += 1 + stride
        cur = np.zeros(stride, dtype=np.int32)
        if kind == 0:  # no filter: the line as it is (what twiddle writes; the loop below is slow)
            out[y] = line
            prev = line
            continue
        for x in range(stride):
            a = cur[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if kind == 1:
                pred = a
            elif kind == 2:
                pred = b
            elif kind == 3:
                pred = (a + b) // 2
            else:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            cur[x] = (line[x] + pred) & 0xFF
        out[y] = cur
        prev = cur
    return out.reshape(height, width, bpp)


def decode_png(path):
    """(pixels of the first frame, number of frames: 1 for a still PNG, acTL's count for APNG)."""
    with open(path, "rb") as f:
        chunks = png_chunks(f.read())
    kinds = [k for k, _ in chunks]
    assert kinds[0] == "IHDR"
    width, height, depth, colour = struct.unpack(">IIBB", chunks[0][1][:10])
    assert (depth, colour) == (8, 2), "expected 8-bit RGB"
    idat = b"".join(p for k, p in chunks if k == "IDAT")
    pixels = unfilter(zlib.decompress(idat), width, height)
    frames = 1
    if "acTL" in kinds:
        (frames,) = struct.unpack(">I", chunks[kinds.index("acTL")][1][:4])
        assert kinds.index("acTL") < kinds.index("IDAT")
        assert kinds.count("fcTL") == frames and kinds.count("fdAT") == frames - 1
        # One sequence over fcTL and fdAT from 0; every frame's fcTL (26 bytes, the whole image
        # at 0, 0) before its data, the first frame's data in IDAT, later frames' in fdAT.
        sequence, expect_data = 0, False
        for k, p in chunks:
            if k == "fcTL":
                assert not expect_data and len(p) == 26
                seq, w, h, x, y, _, den, dispose, blend = struct.unpack(">IIIIIHHBB", p)
                assert (seq, w, h, x, y, den, dispose, blend) == (sequence, width, height, 0, 0, 1000, 0, 0)
                sequence, expect_data = sequence + 1, True
            elif k in ("IDAT", "fdAT"):
                assert expect_data and (k == "IDAT") == (sequence == 1)
                if k == "fdAT":
                    assert struct.unpack(">I", p[:4])[0] == sequence
                    sequence += 1
                    assert len(zlib.decompress(p[4:])) == (width * 3 + 1) * height
                expect_data = False
    return pixels, frames


class Demo(cli_test_common.CliTest):

    def run_demo(self, *args):
        return subprocess.run([cli_test_common.TWIDDLE, "demo", *args], capture_output=True, text=True,
                              timeout=240)

    def check_not_blank(self, pixels, name):
        colours = np.unique(pixels.reshape(-1, 3), axis=0)
        self.assertGreater(len(colours), 1, f"{name} is one colour")

    def test_each_gap(self):
        for gap in ("one", "two", "grating", "circle"):
            out = self.path(gap)
            r = self.run_demo("--out", out, "--gap", gap, "--size", "64", "--save-npy")
            self.assertEqual(r.returncode, 0, r.stderr)
            passes = 12  # 2 log2(64)
            self.assertIn("12 passes of radix 2", r.stdout)
            self.assertRegex(r.stdout, r"512 x 512 transform on the GPU: [0-9.]+ ms")
            names = ["aperture.png", "pattern.png", "timing.png"] + [f"pass-{p:02d}.png" for p in range(1, passes + 1)]
            for name in names:
                pixels, frames = decode_png(os.path.join(out, name))
                self.assertEqual(frames, 1)
                if name != "timing.png":
                    self.assertEqual(pixels.shape, (64, 64, 3), name)
                self.check_not_blank(pixels, f"{gap}/{name}")
            pixels, frames = decode_png(os.path.join(out, "animation.png"))
            self.assertEqual(frames, passes + 1)  # the gap, then every pass
            self.assertEqual(pixels.shape, (64, 64, 3))
            with open(os.path.join(out, "timing.svg")) as f:
                svg = f.read()
            self.assertIn("<svg", svg)
            self.assertIn("by the definition", svg)
            # The pattern: fft2 of the gap with its middle at the corner, unshifted.
            aperture = np.load(os.path.join(out, "aperture.npy"))
            pattern = np.load(os.path.join(out, "pattern.npy"))
            self.assertEqual(aperture.dtype, np.float32)
            self.assertEqual(pattern.dtype, np.complex64)
            self.assertTrue(set(np.unique(aperture)) == {0.0, 1.0}, gap)
            expected = np.fft.fft2(np.fft.ifftshift(aperture.astype(np.float64)))
            self.assertLess(cli_test_common.relative_error(pattern, expected), 1e-6, gap)
            # The picture is the pattern shifted by half: its brightest pixel is in the middle.
            final, _ = decode_png(os.path.join(out, "pattern.png"))
            brightness = final.astype(int).sum(axis=2)
            brightest = np.unravel_index(np.argmax(brightness), brightness.shape)
            self.assertEqual(brightest, (32, 32), gap)

    def test_default_size_takes_eighteen_passes(self):
        out = self.path("default")
        r = self.run_demo("--out", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("gap: two, 512 x 512 cells", r.stdout)
        self.assertIn("18 passes of radix 2 (9 down the columns, then 9 along the rows)", r.stdout)
        for p in range(1, 19):
            pixels, _ = decode_png(os.path.join(out, f"pass-{p:02d}.png"))
            self.assertEqual(pixels.shape, (512, 512, 3))
        self.assertFalse(os.path.exists(os.path.join(out, "pass-19.png")))
        self.assertFalse(os.path.exists(os.path.join(out, "pattern.npy")))

    def test_an_earlier_runs_files_do_not_stay(self):
        # A run into the directory of a run with more passes and --save-npy: the passes beyond its
        # own and the .npy files go, as files the earlier run wrote and this one did not; other
        # files, and names of that form no run wrote, stay.
        out = self.path("out")
        r = self.run_demo("--out", out, "--size", "128", "--save-npy")
        self.assertEqual(r.returncode, 0, r.stderr)
        keep = ["notes.txt", "pass-13.png.bak", "pass-013.png", "pass-00.png", "pattern.npz"]
        for name in keep:
            with open(os.path.join(out, name), "w") as f:
                f.write("mine")
        r = self.run_demo("--out", out, "--size", "64")
        self.assertEqual(r.returncode, 0, r.stderr)
        written = ["aperture.png", "pattern.png", "animation.png", "timing.png", "timing.svg",
                   ".twiddle-demo-files"] + [f"pass-{p:02d}.png" for p in range(1, 13)]
        self.assertEqual(sorted(os.listdir(out)), sorted(written + keep))
        pixels, _ = decode_png(os.path.join(out, "pass-12.png"))
        self.assertEqual(pixels.shape, (64, 64, 3))
        with open(os.path.join(out, ".twiddle-demo-files")) as f:
            self.assertEqual(sorted(f.read().splitlines()), sorted(set(written) - {".twiddle-demo-files"}))

        # The user's own pass-20.png and pattern.npy, names the last run's list does not hold, stay
        # (the first run's pattern.npy went with the second run); so do files an edited list names
        # that a run never writes.
        mine = ["pass-20.png", "pattern.npy"]
        for name in mine:
            with open(os.path.join(out, name), "w") as f:
                f.write("mine")
        with open(os.path.join(out, ".twiddle-demo-files"), "a") as f:
            f.write("notes.txt\n../out\n\n")
        r = self.run_demo("--out", out, "--size", "16")
        self.assertEqual(r.returncode, 0, r.stderr)
        written = written[:-12] + [f"pass-{p:02d}.png" for p in range(1, 9)]
        self.assertEqual(sorted(os.listdir(out)), sorted(written + keep + mine))
        for name in keep + mine:
            with open(os.path.join(out, name)) as f:
                self.assertEqual(f.read(), "mine", name)

    def test_bad_arguments(self):
        target = self.path("never")
        for args in (["--size", "100"], ["--size", "8"], ["--size", "+64"], ["--size", " 64"],
                     ["--gap", "square"], ["--bogus"]):
            r = self.run_demo("--out", target, *args)
            self.assertNotEqual(r.returncode, 0, args)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
            self.assertFalse(os.path.exists(target), args)
        r = self.run_demo("--size", "64")
        self.assertNotEqual(r.returncode, 0)
        # An output path that is a file.
        blocker = self.path("file")
        with open(blocker, "w") as f:
            f.write("x")
        r = self.run_demo("--out", blocker, "--size", "64")
        self.assertNotEqual(r.returncode, 0)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        # Paths that cannot be made are refused before the work (they failed after it before).
        for out in ("", os.path.join(blocker, "sub")):
            r = self.run_demo("--out", out, "--size", "64")
            self.assertEqual(r.returncode, 1, out)
            self.assertNotIn("device:", r.stdout, out)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)

    def test_a_failed_write_removes_the_directories_it_made(self):
        # Files over 4 KiB cannot be written (SIGXFSZ ignored: the write fails with EFBIG), so a
        # picture fails part-way: the directory and its parents made for it go too (the parents
        # stayed before).
        def limit_file_size():
            resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

        r = subprocess.run([cli_test_common.TWIDDLE, "demo", "--out", self.path("a/b/c"), "--size", "64"],
                           capture_output=True, text=True, timeout=240, preexec_fn=limit_file_size,
                           env=dict(os.environ, TWIDDLE_CACHE_DIR="off"))
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("File too large", r.stderr)
        self.assertEqual(os.listdir(self.dir), [])


if __name__ == "__main__":
    cli_test_common.main(__doc__)
