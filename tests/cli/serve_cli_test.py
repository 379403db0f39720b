"""Runs `twiddle serve` on the default device and drives its page in headless Chromium through
playwright-core (tests/web/serve_page.cjs), then checks the server's answers to bad requests and
its refusal of an address it cannot listen on.

Usage: python3 serve_cli_test.py PATH/TO/twiddle NODE_MODULES_DIR [unittest arguments]
(playwright-core is installed there from the npm registry if it is not there yet)
"""

import os
import re
import subprocess
import sys
import urllib.error
import urllib.request

import cli_test_common

HERE = os.path.dirname(os.path.abspath(__file__))
MODULES = None  # where playwright-core is, set from the command line
PLAYWRIGHT = "playwright-core@1.64.1"


def ensure_playwright():
    if not os.path.isdir(os.path.join(MODULES, "node_modules", "playwright-core")):
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", MODULES, PLAYWRIGHT],
                       check=True, timeout=600)


class Serve(cli_test_common.CliTest):

    def setUp(self):
        super().setUp()
        self.server = subprocess.Popen([cli_test_common.TWIDDLE, "serve", "--port", "0", "--size", "64"],
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.url = None
        for line in self.server.stdout:
            m = re.search(r"serving (http://\S+)", line)
            if m:
                self.url = m.group(1)
                break
        self.assertIsNotNone(self.url, self.server.stderr.read() if self.server.poll() is not None else "")

    def tearDown(self):
        self.server.terminate()
        self.server.communicate(timeout=30)
        super().tearDown()

    def get(self, path):
        status, headers, body = self.request("GET", path)
        return status, headers.get("Content-Type"), body

    def request(self, method, path):
        """(status, headers, body) of a request with `method` (and a small body where it takes one)."""
        data = b"x" if method in ("POST", "PUT", "PATCH") else None
        try:
            with urllib.request.urlopen(urllib.request.Request(self.url + path, data=data, method=method),
                                        timeout=120) as r:
                return r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read()

    def test_page_in_a_browser(self):
        ensure_playwright()
        shot = self.path("page.png")
        env = dict(os.environ, NODE_PATH=os.path.join(MODULES, "node_modules"))
        r = subprocess.run(["node", os.path.join(HERE, "..", "web", "serve_page.cjs"), self.url, shot],
                           capture_output=True, text=True, timeout=240, env=env)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("ok:", r.stdout)
        with open(shot, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def test_answers(self):
        status, kind, body = self.get("")
        self.assertEqual((status, kind), (200, "text/html"))
        self.assertNotIn(b"http:", body)  # nothing fetched from elsewhere
        self.assertNotIn(b"https:", body)
        status, kind, body = self.get("frame?gap=circle&pass=12")
        self.assertEqual((status, kind), (200, "image/png"))
        self.assertEqual(body[:8], b"\x89PNG\r\n\x1a\n")
        for bad in ("frame?gap=square&pass=1", "frame?gap=two&pass=13", "frame?gap=two&pass=-2",
                    "frame?gap=two&pass=x", "frame?gap=two&pass=+1", "frame?gap=two&pass=%201",
                    "frame?gap=two&pass=99999999999999999999", "frame?gap=two", "aperture?gap=none"):
            status, _, body = self.get(bad)
            self.assertEqual(status, 400, bad)
            self.assertTrue(body, bad)
        status, _, _ = self.get("nothing-here")
        self.assertEqual(status, 404)

    def test_methods(self):
        # Another method than GET or HEAD on a page is 405 with the methods it takes (httplib's
        # own answers were 400 or 404 by the method); any method on no page is 404.
        for path in ("", "info", "timing.svg", "frame?gap=two&pass=1", "aperture?gap=two"):
            status, headers, _ = self.request("HEAD", path)
            self.assertEqual(status, 200, path)
            for method in ("POST", "PUT", "PATCH", "DELETE", "OPTIONS"):
                status, headers, body = self.request(method, path)
                self.assertEqual(status, 405, f"{method} /{path}")
                self.assertEqual(headers.get("Allow"), "GET, HEAD", f"{method} /{path}")
                self.assertTrue(body, f"{method} /{path}")
        for method in ("GET", "HEAD", "POST", "DELETE"):
            for path in ("nothing-here", "timingXsvg", "info/"):
                status, _, _ = self.request(method, path)
                self.assertEqual(status, 404, f"{method} /{path}")

    def test_address_it_cannot_listen_on(self):
        # 203.0.113.1 (TEST-NET-3) is no address of this machine.
        r = subprocess.run([cli_test_common.TWIDDLE, "serve", "--host", "203.0.113.1", "--port", "8080",
                            "--size", "16"], capture_output=True, text=True, timeout=120)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("cannot listen on 203.0.113.1:8080", r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        # The port of the server this test started: a second server took part of its requests
        # (cpp-httplib's default SO_REUSEPORT).
        port = self.url.rstrip("/").rsplit(":", 1)[1]
        r = subprocess.run([cli_test_common.TWIDDLE, "serve", "--port", port, "--size", "16"],
                           capture_output=True, text=True, timeout=120)
        self.assertNotEqual(r.returncode, 0)
        self.assertEqual(r.stderr, f"twiddle: error: cannot listen on 127.0.0.1:{port}\n")
        r = subprocess.run([cli_test_common.TWIDDLE, "serve", "--host", ""], capture_output=True, text=True,
                           timeout=120)
        self.assertEqual(r.returncode, 2, r.stderr)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    MODULES = sys.argv.pop(2)
    cli_test_common.main(__doc__)
