"""The page's JavaScript unit tests (tests/js/*.test.mjs), run with Node's built-in test
runner (node:test) so that `python3 build.py test` and CI run them with everything else.
They drive the page's controllers (web/js/ui/ctrl/) against the real engine in CPython."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
FILES = sorted(HERE.glob("*.test.mjs"))


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_node(path):
    node = shutil.which("node")
    if node is None:
        pytest.fail("node not found: install Node.js (python3 build.py test needs it anyway)")
    env = {**os.environ, "PYTHON": sys.executable}
    run = subprocess.run(
        [node, "--test", "--test-reporter=spec", str(path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
