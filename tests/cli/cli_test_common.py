"""What the command-line tests share: the binary under test, a test case with a scratch directory,
the relative error, and the entry point."""

import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

TWIDDLE = None  # the binary under test, set by main() from the command line


def relative_error(result, expected):
    """||result - expected|| / ||expected|| (the plain norm where expected is 0), in expected's dtype."""
    scale = np.linalg.norm(expected)
    return np.linalg.norm(result.astype(expected.dtype) - expected) / (scale if scale > 0 else 1.0)


class CliTest(unittest.TestCase):
    """A test with its own temporary directory, which runs the twiddle binary."""

    def setUp(self):
        self._dir = tempfile.TemporaryDirectory(prefix="twiddle-cli-test-")
        self.dir = self._dir.name

    def tearDown(self):
        self._dir.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def twiddle(self, *args):
        return subprocess.run([TWIDDLE, *args], capture_output=True, text=True, timeout=120)


def main(doc):
    """Runs the calling module's tests: `python3 TEST.py PATH/TO/twiddle [unittest arguments]`."""
    global TWIDDLE
    if len(sys.argv) < 2:
        sys.exit(doc)
    TWIDDLE = sys.argv.pop(1)
    unittest.main(module="__main__", verbosity=2)
