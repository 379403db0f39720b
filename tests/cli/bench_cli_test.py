"""Runs `twiddle bench --compare` and `twiddle bench --plan-time` on a few small cases and checks
their result files and charts: every library's row is there, the available ones passed their
accuracy gate with a sane error, cuFFT is either not available (no NVIDIA GPU) or passed, and the
SVG parses and the PNG decodes into a picture that is not blank. Times are not checked.

Usage: python3 bench_cli_test.py PATH/TO/twiddle [unittest arguments]
"""

import csv
import os
import json
import struct
import xml.etree.ElementTree as ET
import zlib

import numpy as np

import cli_test_common

LIBRARIES = ["twiddle", "vkfft", "cufft", "fftw"]
ALWAYS = ["twiddle", "vkfft", "fftw"]  # present wherever twiddle builds
FAST = ["--quick", "--warmup", "0.05", "--reps", "5"]


def decode_png(path):
    """The pixels of an 8-bit RGB or RGBA PNG as an (height, width, channels) array."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0]
        assert zlib.crc32(kind + body) == crc, f"bad CRC in chunk {kind}"
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and color in (2, 6) and interlace == 0, header
    channels = 3 if color == 2 else 4
    raw = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(height, 1 + width * channels)
    out = np.zeros((height, width * channels), dtype=np.int32)
    for y in range(height):
        kind, line = raw[y, 0], raw[y, 1:].astype(np.int32)
        above = out[y - 1] if y else np.zeros_like(line)
        if kind == 0:
            out[y] = line
        elif kind == 2:
            out[y] = (line + above) & 255
        else:  # 1 (sub), 3 (average), 4 (Paeth) depend on the pixel to the left: one at a time
            row = np.zeros_like(line)
            for x in range(len(line)):
                left = row[x - channels] if x >= channels else 0
                up_left = above[x - channels] if x >= channels else 0
                if kind == 1:
                    pred = left
                elif kind == 3:
                    pred = (left + above[x]) // 2
                else:
                    p = left + above[x] - up_left
                    pa, pb, pc = abs(p - left), abs(p - above[x]), abs(p - up_left)
                    pred = left if pa <= pb and pa <= pc else above[x] if pb <= pc else up_left
                row[x] = (line[x] + pred) & 255
            out[y] = row
    return out.reshape(height, width, channels).astype(np.uint8)


class Bench(cli_test_common.CliTest):

    def run_ok(self, *args):
        run = self.twiddle("bench", *args)
        self.assertEqual(run.returncode, 0, f"{args}: {run.stdout}\n{run.stderr}")
        return run

    def check_results(self, results, case):
        """`results`: library -> (status, rel_l2, gbps) of one case."""
        self.assertEqual(sorted(results), sorted(LIBRARIES), case)
        for lib in ALWAYS:
            status, rel_l2, gbps = results[lib]
            self.assertEqual(status, "ok", f"{case} {lib}")
            self.assertTrue(0 < rel_l2 <= 5e-7, f"{case} {lib}: rel_l2 {rel_l2}")
            self.assertGreater(gbps, 0, f"{case} {lib}")
        status, rel_l2, _ = results["cufft"]
        self.assertIn(status, ("ok", "not available"), case)
        if status == "ok":
            self.assertTrue(0 < rel_l2 <= 5e-7, f"{case} cufft: rel_l2 {rel_l2}")

    def check_charts(self, stem, device=None):
        root = ET.parse(stem + ".svg").getroot()
        self.assertTrue(root.tag.endswith("svg"))
        texts = [t.text for t in root.iter() if t.tag.endswith("text")]
        for word in ("twiddle", "vkfft", "fftw", "log2 N", "GB/s (read + written)"):
            self.assertIn(word, texts)
        if device is not None:  # the title names the device
            self.assertTrue(any(t and device in t for t in texts), f"no title names {device!r}: {texts}")
        image = decode_png(stem + ".png")
        height, width, _ = image.shape
        self.assertGreater(width, 400)
        self.assertGreater(height, 300)
        ink = np.any(image[:, :, :3] < 250, axis=2).mean()
        self.assertTrue(0.01 < ink < 0.5, f"{ink:.3f} of the pixels drawn")
        # twiddle's series colour is there, and some text (black).
        colours = image[:, :, :3].reshape(-1, 3)
        self.assertTrue(np.any(np.all(colours == (214, 39, 40), axis=1)), "no twiddle series in the PNG")
        self.assertTrue(np.any(np.all(colours == (0, 0, 0), axis=1)), "no text in the PNG")

    def test_compare_json_and_chart(self):
        out = self.path("compare.json")
        run = self.run_ok("--compare", *FAST, "--n", "64,1000", "--shapes", "16x16", "--out", out)
        for lib in LIBRARIES:
            self.assertIn(lib, run.stdout)
        with open(out) as f:
            doc = json.load(f)
        libraries = {lib["name"]: lib for lib in doc["libraries"]}
        self.assertEqual(sorted(libraries), sorted(LIBRARIES))
        for lib in ALWAYS:
            self.assertTrue(libraries[lib]["available"], libraries[lib])
        self.assertEqual([c["shape"] for c in doc["cases"]], ["64", "1000", "16x16"])
        for case in doc["cases"]:
            self.assertEqual((case["kind"], case["precision"]), ("c2c", "f32"))
            results = {r["library"]: (r["status"], r["rel_l2"], r["gbps"]) for r in case["results"]}
            if not libraries["cufft"]["available"]:
                self.assertEqual(results["cufft"][0], "not available")
            self.check_results(results, case["shape"])
            self.assertGreater(case["ratio"], 0)
            self.assertIn(case["best_peer"], ("vkfft", "cufft", "fftw"))
        # The chart lies beside --out.
        self.check_charts(self.path("compare"), device=doc["device"])

    def test_compare_unsupported_case(self):
        # The direct sum (--strategy dft) takes lengths up to 65536: twiddle's refusal of 2^17 is
        # reported as unsupported, as the peers' own refusals are, and does not fail the command.
        out = self.path("unsupported.json")
        self.run_ok("--compare", "--strategy", "dft", "--total", "17", "--warmup", "0.05", "--reps", "5",
                    "--n", "64,131072", "--out", out)
        with open(out) as f:
            doc = json.load(f)
        statuses = {c["shape"]: {r["library"]: r["status"] for r in c["results"]} for c in doc["cases"]}
        self.assertEqual(statuses["64"]["twiddle"], "ok")
        self.assertTrue(statuses["131072"]["twiddle"].startswith("unsupported: "), statuses["131072"])
        self.assertEqual(statuses["131072"]["fftw"], "ok")

    def test_no_case_ran(self):
        # Every case unsupported (the direct sum stops at 65536): the rows are written, and the
        # command fails in one line with the reason, as it does for --plan-time. One case that
        # runs is enough to succeed.
        for mode in (["--warmup", "0", "--reps", "5"], ["--plan-time", "--plan-reps", "1"]):
            out = self.path("none.csv")
            run = self.twiddle("bench", *mode, "--strategy", "dft", "--total", "17", "--n", "131072",
                               "--out", out)
            self.assertEqual(run.returncode, 1, (mode, run.stdout, run.stderr))
            self.assertIn("no case ran: the direct sum takes lengths up to 65536", run.stderr)
            self.assertEqual(run.stderr.count("\n"), 1, run.stderr)
            with open(out) as f:
                rows = [r for r in csv.DictReader(f) if r["library"] == "twiddle"]
            self.assertEqual(len(rows), 1, mode)
            self.assertTrue(rows[0]["status"].startswith("unsupported: "), rows[0])
        out = self.path("some.csv")
        self.run_ok("--strategy", "dft", "--total", "17", "--warmup", "0", "--reps", "5", "--n", "64,131072",
                    "--out", out)
        with open(out) as f:
            rows = [r for r in csv.DictReader(f) if r["library"] == "twiddle"]
        self.assertEqual(rows[0]["status"], "ok")
        self.assertTrue(rows[1]["status"].startswith("unsupported: "), rows)
        self.assertEqual(rows[1]["rel_l2"], "")  # not measured, not a perfect 0
        # So too for --sht and --convolve: a case the stage or the graph refuses (two passes need
        # nphi a multiple of 64; the direct sum's 65536 points) is a row, not the end of the run.
        out = self.path("some-sht.csv")
        self.run_ok("--sht", "4x128x63,4x100x49", "--sht-passes", "two", "--total", "12", "--warmup", "0",
                    "--reps", "5", "--out", out)
        with open(out) as f:
            rows = [r for r in csv.DictReader(f) if r["library"] == "twiddle"]
        self.assertEqual([r["status"] for r in rows[:2]], ["ok", "ok"])
        self.assertEqual(len(rows), 4)
        # Each grid's copy fraction is against the copy kernel timed over that grid's bytes.
        for r in rows[:2]:
            self.assertGreater(float(r["copy_gbps"]), 0, r)
            self.assertAlmostEqual(float(r["copy_fraction"]), float(r["gbps"]) / float(r["copy_gbps"]),
                                   delta=1e-4 * float(r["copy_fraction"]), msg=r)
        for r in rows[2:]:
            self.assertTrue(r["status"].startswith("unsupported: ") and "multiple of 64" in r["status"], r)
            self.assertEqual(r["rel_l2"], "")
        out = self.path("some-convolve.json")
        self.run_ok("--convolve", "64,70000", "--strategy", "dft", "--total", "12", "--warmup", "0",
                    "--reps", "5", "--out", out)
        with open(out) as f:
            cases = json.load(f)["cases"]
        self.assertEqual([c["status"] for c in cases[:3]], ["ok"] * 3)
        self.assertEqual(len(cases), 6)
        for c in cases[3:]:
            self.assertTrue(c["status"].startswith("unsupported: ") and "the direct sum" in c["status"], c)
            self.assertIsNone(c["rel_l2"])

    def test_compare_real_csv(self):
        out, plot = self.path("real.csv"), self.path("chart")
        self.run_ok("--compare", *FAST, "--real", "--n", "256", "--out", out, "--plot", plot + ".png")
        with open(out) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(rows[0]["library"], "copy")
        # Every row names the device and driver, as the JSON does once.
        self.assertEqual(len({(r["device"], r["driver"]) for r in rows}), 1, rows)
        self.assertTrue(rows[0]["device"] and rows[0]["driver"], rows[0])
        cases = [r for r in rows if r["library"] != "copy"]
        self.assertEqual(sorted(r["library"] for r in cases), sorted(LIBRARIES))
        for r in cases:
            self.assertEqual((r["kind"], r["shape"], r["batch"]), ("r2c", "256", str(2**16 // 256)))
        results = {r["library"]: (r["status"], float(r["rel_l2"] or "nan"), float(r["gbps"])) for r in cases}
        self.check_results(results, "r2c 256")
        self.check_charts(plot)

    def test_inverse(self):
        # --inverse times c2c inverses, and with --real c2r from real arrays' spectra: twiddle's
        # rows pass the reference's gate, and every library's output agrees with it (VkFFT's and
        # FFTW's c2r only where the input is a real array's spectrum in every dim).
        for real in (False, True):
            kind = "c2r" if real else "c2c"
            out = self.path(f"inverse-{kind}.csv")
            self.run_ok("--inverse", *(["--real"] if real else []), "--n", "64,1000", "--shapes", "16x12,6x10x4",
                        "--total", "14", "--reps", "5", "--warmup", "0", "--out", out)
            with open(out) as f:
                rows = [r for r in csv.DictReader(f) if r["library"] == "twiddle"]
            self.assertEqual([r["shape"] for r in rows], ["64", "1000", "16x12", "6x10x4"])
            for r in rows:
                self.assertEqual((r["status"], r["kind"], r["direction"]), ("ok", kind, "inverse"), r)
                self.assertTrue(0 < float(r["rel_l2"]) <= 5e-7, r)
        out = self.path("inverse.json")
        self.run_ok("--compare", "--inverse", "--real", *FAST, "--n", "8,1000", "--shapes", "16x12,6x10x4",
                    "--out", out)
        with open(out) as f:
            doc = json.load(f)
        self.assertEqual([c["shape"] for c in doc["cases"]], ["8", "1000", "16x12", "6x10x4"])
        for case in doc["cases"]:
            self.assertEqual((case["kind"], case["direction"]), ("c2r", "inverse"))
            results = {r["library"]: (r["status"], r["rel_l2"], r["gbps"]) for r in case["results"]}
            self.check_results(results, "c2r " + case["shape"])

    def test_quick_gives_way_to_options_given(self):
        # --quick's sweep (2^16 values per case, N up to 4096) only fills in what is not given.
        out = self.path("quick.csv")
        self.run_ok("--quick", "--warmup", "0", "--total", "17", "--max", "4", "--out", out)
        with open(out) as f:
            rows = [r for r in csv.DictReader(f) if r["library"] == "twiddle"]
        self.assertEqual([(r["shape"], r["batch"]) for r in rows], [("8", str(2**14)), ("16", str(2**13))])

    def test_copy_moves_the_cases_bytes(self):
        # The yardstick copy moves 2^total complex values of the cases' precision, read and
        # written: 2 x 8 x 2^12 bytes in f32, 2 x 16 x 2^12 in f64, with and without --compare.
        for extra in ([], ["--compare"]):
            for precision, size in (([], 8), (["--f64"], 16)):
                run = self.run_ok(*extra, *precision, "--n", "64", "--total", "12", "--reps", "5",
                                  "--warmup", "0")
                self.assertIn(f"over {2 * size * 2**12} bytes (read + written)", run.stdout,
                              (extra, precision))

    def test_pass_times_csv(self):
        # 8192 takes two passes on every device's default plan here (--max-pass-length 64); 16x16
        # two passes (one per dim); 64 one pass, which reports no pass times.
        out = self.path("passes.csv")
        self.run_ok("--n", "8192,64", "--shapes", "16x16", "--max-pass-length", "64", "--total", "14",
                    "--reps", "5", "--warmup", "0", "--pass-times", "--out", out)
        with open(out) as f:
            rows = [r for r in csv.DictReader(f) if r["library"] == "twiddle"]
        self.assertEqual([r["shape"] for r in rows], ["8192", "64", "16x16"])
        for r in rows:
            self.assertEqual(r["status"], "ok", r)
            passes = int(r["passes"])
            times = [float(t) for t in r["pass_ms"].split(";")] if r["pass_ms"] else []
            self.assertEqual(len(times), passes if passes > 1 else 0, r)
            # Both timing rounds' medians, the case's time the lower.
            rounds = [float(t) for t in r["round_ms"].split(";")]
            self.assertEqual(len(rounds), 2, r)
            self.assertEqual(min(rounds), float(r["ms"]), r)
        self.assertGreater(int(rows[0]["passes"]), 1, rows[0])

    def test_plan_time(self):
        out = self.path("plan.csv")
        run = self.run_ok("--plan-time", "--n", "64,1000", "--plan-reps", "2", "--total", "14", "--out", out)
        self.assertIn("cold median", run.stdout)
        with open(out) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual([r["n"] for r in rows], ["64", "1000"])
        for r in rows:
            self.assertEqual(r["status"], "ok", r)
            self.assertGreaterEqual(int(r["kernels_compiled_cold"]), 1, r)
            # Warm plans find every kernel on disk and compile none.
            self.assertEqual(r["kernels_loaded_warm"], r["kernels_compiled_cold"], r)
            self.assertEqual(r["kernels_compiled_warm"], "0", r)
            for key in ("cold_first_ms", "cold_median_ms", "warm_median_ms", "cold_shaderc_median_ms",
                        "cold_driver_median_ms", "warm_driver_median_ms"):
                self.assertGreater(float(r[key]), 0, f"{key}: {r}")
            # One kernel's shaderc and driver time lie within its plan's.
            if r["kernels_compiled_cold"] == "1":
                self.assertLess(float(r["cold_shaderc_median_ms"]) + float(r["cold_driver_median_ms"]),
                                float(r["cold_median_ms"]) * 1.5, r)

    def test_options_of_another_mode(self):
        # An option of --compare or --plan-time without its mode is refused in one line, not ignored.
        for args, needed in ((["--plot", self.path("chart")], "--compare"), (["--vkfft-lut"], "--compare"),
                             (["--fftw-threads", "2"], "--compare"), (["--plan-reps", "2"], "--plan-time")):
            run = self.twiddle("bench", "--n", "64", *args)
            self.assertEqual(run.returncode, 2, (args, run.stdout, run.stderr))
            self.assertIn(f"requires {needed}", run.stderr)
            self.assertEqual(run.stderr.count("\n"), 1, run.stderr)
            self.assertEqual(run.stdout, "", args)
        # One mode per run, and no option the mode would ignore.
        for args, message in ((["--sht", "4x16x7", "--convolve", "16"], "excludes"),
                              (["--compare", "--plan-time"], "excludes"),
                              (["--sht", "4x16x7", "--real"], "excludes"),
                              (["--convolve", "16", "--n", "64"], "excludes"),
                              (["--plan-time", "--pass-times"], "excludes"),
                              (["--plan-time", "--warmup", "0"], "excludes"),
                              (["--plan-time", "--reps", "5"], "excludes"),
                              (["--compare", "--copy-shared", "1024"], "excludes"),
                              (["--convolve", "16", "--kernel-stats"], "excludes"),
                              (["--sht", "4x16x7", "--min", "4"], "excludes"),
                              (["--mpi", "--max-radix", "4"], "excludes"),
                              (["--fields", "4"], "requires --sht"),
                              (["--sht-passes", "two"], "requires --sht")):
            run = self.twiddle("bench", *args)
            self.assertEqual(run.returncode, 2, (args, run.stdout, run.stderr))
            self.assertIn(message, run.stderr)
            self.assertEqual(run.stderr.count("\n"), 1, run.stderr)

    def test_unwritable_chart_is_refused_before_the_cases(self):
        # The table and its chart are one set: a chart path that cannot be written is refused
        # before any case runs, and no table is made.
        out = self.path("r.csv")
        run = self.twiddle("bench", "--compare", *FAST, "--n", "16", "--out", out, "--plot",
                           self.path("no/such/dir/chart"))
        self.assertEqual(run.returncode, 1, run.stderr)
        self.assertIn("chart.svg", run.stderr)
        self.assertEqual(run.stderr.count("\n"), 1, run.stderr)
        self.assertEqual(os.listdir(self.dir), [])
        # Through a link to a missing file the table would be made at the link's end: nothing is,
        # and the link stays.
        os.symlink("made.csv", out)
        run = self.twiddle("bench", "--compare", *FAST, "--n", "16", "--out", out, "--plot",
                           self.path("no/such/dir/chart"))
        self.assertEqual(run.returncode, 1, run.stderr)
        self.assertEqual(os.listdir(self.dir), ["r.csv"])
        self.assertEqual(os.readlink(out), "made.csv")


if __name__ == "__main__":
    cli_test_common.main(__doc__)
