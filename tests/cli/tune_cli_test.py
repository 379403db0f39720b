"""Runs `twiddle tune` on the default device: it measures lengths, keeps the choices in the disk
cache (a directory of the test's own, so that the other tests' plans take no tuned options), lists,
exports, imports and clears them, and refuses what it cannot do.

Usage: python3 tune_cli_test.py PATH/TO/twiddle [unittest arguments]
"""

import os
import subprocess

import cli_test_common


class Tune(cli_test_common.CliTest):

    def setUp(self):
        super().setUp()
        self.env = dict(os.environ, TWIDDLE_CACHE_DIR=self.path("cache"))

    def run_tune(self, *args):
        return subprocess.run([cli_test_common.TWIDDLE, "tune", *args], capture_output=True, text=True,
                              timeout=240, env=self.env)

    def rows(self, stdout):
        """The table's rows: (kind, precision, N, options)."""
        out = []
        for line in stdout.splitlines():
            fields = line.split()
            if len(fields) >= 8 and fields[0] in ("c2c", "r2c", "c2r"):
                out.append((fields[0], fields[1], int(fields[2]), " ".join(fields[7:])))
        return out

    def test_tune_list_export_import_clear(self):
        r = self.run_tune("--n", "16,64", "--total", "12", "--reps", "2")
        self.assertEqual(r.returncode, 0, r.stderr)
        tuned = self.rows(r.stdout)
        self.assertEqual([(k, p, n) for k, p, n, _ in tuned], [("c2c", "f32", 16), ("c2c", "f32", 64)])
        r = self.run_tune("--real", "--n", "64", "--total", "12", "--reps", "2")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual([(k, n) for k, _, n, _ in self.rows(r.stdout)], [("r2c", 64)])
        # c2r is tuned apart from r2c (timed inverse).
        r = self.run_tune("--real", "--inverse", "--n", "64", "--total", "12", "--reps", "2")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual([(k, n) for k, _, n, _ in self.rows(r.stdout)], [("c2r", 64)])
        # The choices stay in the cache: --list prints all four, --export writes them.
        exported = self.path("choices.txt")
        r = self.run_tune("--list", "--export", exported)
        self.assertEqual(r.returncode, 0, r.stderr)
        listed = self.rows(r.stdout)
        self.assertEqual(sorted((k, n) for k, _, n, _ in listed),
                         [("c2c", 16), ("c2c", 64), ("c2r", 64), ("r2c", 64)])
        with open(exported) as f:
            lines = [line for line in f.read().splitlines() if line and not line.startswith("#")]
        self.assertEqual(len(lines), 4)
        self.assertTrue(all(" max_radix=" in line and " ms=" in line for line in lines), lines)
        # Cleared, then imported back.
        r = self.run_tune("--clear", "--list")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(self.rows(r.stdout), [])
        r = self.run_tune("--import", exported, "--list")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(sorted(self.rows(r.stdout)), sorted(listed))
        # --clear with a file that does not import leaves the choices as they were.
        bad = self.path("bad.txt")
        with open(bad, "w") as f:
            f.write("garbage line\n")
        r = self.run_tune("--clear", "--import", bad)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("tuning:", r.stderr)
        r = self.run_tune("--list")
        self.assertEqual(sorted(self.rows(r.stdout)), sorted(listed))

    def test_refusals(self):
        for args, message in [((), "nothing to do"), (("--n", "0"), "'0' is not an integer from 1"),
                              (("--n=-1",), "'-1' is not an integer from 1"),
                              (("--inverse", "--n", "64"), "requires --real"),
                              (("--n", "4294967295"), "over the 2^31 - 1 points")]:
            r = self.run_tune(*args)
            self.assertNotEqual(r.returncode, 0)
            self.assertIn(message, r.stderr)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        bad = self.path("bad.txt")
        with open(bad, "w") as f:
            f.write("c2c f32 64 max_radix=banana\n")
        r = self.run_tune("--import", bad)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("tuning:", r.stderr)

    def test_without_the_disk_cache(self):
        # With the disk cache off, tuned choices last as long as the process: tune refuses to
        # make or import choices that nothing would keep, and keeps them in --export's file.
        # "off" in any case: "OFF" was taken for a directory of that name.
        for off in ("off", "OFF"):
            self.env["TWIDDLE_CACHE_DIR"] = off
            for args, message in (
                    (("--n", "64", "--total", "10", "--reps", "1"), "so the choices would be lost"),
                    (("--clear",), f"tune --clear: the disk cache is off (TWIDDLE_CACHE_DIR={off})")):
                r = self.run_tune(*args)
                self.assertEqual(r.returncode, 1, r.stderr)
                self.assertIn(message, r.stderr)
                self.assertEqual(r.stdout, "")
        exported = self.path("choices.txt")
        r = self.run_tune("--n", "64", "--total", "10", "--reps", "1", "--export", exported)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(exported) as f:
            self.assertEqual([line.split()[:3] for line in f], [["c2c", "f32", "64"]])
        self.assertEqual(os.listdir(self.dir), ["choices.txt"])


if __name__ == "__main__":
    cli_test_common.main(__doc__)
