"""The package stands on its own: the wheel the standard build tool makes imports whole."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

CHECK = """
import importlib, json, pkgutil, sys
import junqi_core
assert junqi_core.__file__.startswith(sys.argv[1]), junqi_core.__file__
names = [m.name for m in pkgutil.walk_packages(junqi_core.__path__, "junqi_core.")]
for name in names:
    importlib.import_module(name)
from junqi_core.bridge import handle
reply = json.loads(handle(json.dumps({"op": "new_game", "variant": "classic",
                                      "cpu": {"1": "easy"}, "viewer": 0})))
print(json.dumps({"modules": names, "ok": reply.get("ok")}))
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    pytest.importorskip("build")
    out = tmp_path_factory.mktemp("wheel")
    # run from elsewhere: in the project root `-m build` would find our own build.py
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), ROOT],
        cwd=out,
        check=True,
        capture_output=True,
    )
    (found,) = out.glob("junqi_core-*.whl")
    return found


def test_the_wheel_holds_every_module_of_the_source_tree(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    sources = {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "junqi_core").rglob("*.py")
        if "__pycache__" not in p.parts
    }
    assert sources <= names, sorted(sources - names)


def test_everything_imports_from_the_wheel_alone_and_the_bridge_answers(wheel, tmp_path):
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    # -I: isolated (no current directory, no user site), so only the wheel can be found
    result = subprocess.run(
        [
            sys.executable,
            "-I",
            "-c",
            f"import sys; sys.path.insert(0, {str(site)!r});" + CHECK,
            str(site),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["ok"] is True
    assert "junqi_core.ai.player" in report["modules"] and "junqi_core.bridge" in report["modules"]
