"""build.py output and hosting config, checked without a browser."""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import re
import shutil
import stat
import sys
import tomllib
import zipfile
from pathlib import Path

from sitekit import ROOT

import build

SVG_NAMESPACE = "http://www.w3.org/2000/svg"  # an XML namespace name, never fetched


def test_wheel_is_reproducible_and_complete(tmp_path):
    a = build.build_wheel(tmp_path / "a", epoch=1_700_000_000)
    b = build.build_wheel(tmp_path / "b", epoch=1_700_000_000)
    assert a.read_bytes() == b.read_bytes()
    with zipfile.ZipFile(a) as zf:
        names = zf.namelist()
        assert "junqi_core/bridge.py" in names
        assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
        record = zf.read(f"junqi_core-{build.read_project()['version']}.dist-info/RECORD")
        for line in record.decode().splitlines():
            name, digest, _ = line.split(",")
            if digest:
                raw = hashlib.sha256(zf.read(name)).digest()
                import base64

                assert digest == "sha256=" + base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def test_the_pages_wheel_holds_its_startup_modules_as_bytecode(dist):
    """The page's wheel holds the modules the worker imports before the engine answers, as
    hash-based bytecode without docstrings (a first visit does not compile them, and
    downloads less); every other module is source in the second archive, which the worker
    fetches after ready. Browser tests boot the engine from these two."""
    manifest = json.loads((dist / "build.json").read_text())
    info = (dist / manifest["assets"] / "js" / "build-info.js").read_text()
    info = json.loads(info[info.index("{") : info.rindex("}") + 1])
    startup = info["engineModules"]
    assert "junqi_core.bridge" in startup and "junqi_core.rules" in startup
    (wheel,) = (dist / manifest["assets"] / "py").glob("junqi_core-*.whl")
    later = build.later_archive(wheel)
    assert info["laterURL"] == f"{manifest['assets']}/py/{later.name}"
    assert info["laterSha256"] == hashlib.sha256(later.read_bytes()).hexdigest()
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        compiled = {n for n in names if n.endswith(".pyc")}
        for module in startup:
            path = module.replace(".", "/")
            pyc = f"{path}.pyc" if f"{path}.pyc" in names else f"{path}/__init__.pyc"
            assert pyc in compiled and pyc[:-1] not in names, module
            flags = int.from_bytes(zf.read(pyc)[4:8], "little")
            assert flags == 0b01  # hash-based, unchecked: no timestamp, same bytes each build
        assert len(compiled) == len(startup)
        assert not [n for n in names if n.endswith(".py")]
        bridge = zf.read("junqi_core/bridge.pyc")
        assert b"never raises" not in bridge  # handle()'s docstring: function docstrings go
        assert b"junqi_core/bridge.py" in bridge  # tracebacks still name the file
    with zipfile.ZipFile(later) as zf:
        sources = set(zf.namelist())
        assert {"junqi_core/fair/__init__.py", "junqi_core/ai/notes.py"} <= sources
    every = {p.relative_to(ROOT).as_posix() for p in (ROOT / "junqi_core").rglob("*.py")}
    assert every == sources | {n[:-1] for n in compiled}
    assert not sources & {n[:-1] for n in compiled}


def test_bytecode_for_pyodide_is_the_same_from_two_fresh_interpreters(tmp_path, monkeypatch):
    """The build keeps compiled bytecode by the sources' hash; compiled afresh (no kept
    copy), the same source gives the same bytes, so a kept copy is the same as a new one."""
    sources = {"junqi_core/rules.py": (ROOT / "junqi_core" / "rules.py").read_bytes()}
    made = []
    for name in ("a", "b"):
        monkeypatch.setattr(build, "CACHE", tmp_path / name)
        made.append(build.pyodide_bytecode(ROOT / "node_modules" / "pyodide", sources))
        assert list((tmp_path / name).glob("bytecode-*.json"))  # kept for the next build
    assert made[0] == made[1]
    assert list(made[0]) == ["junqi_core/rules.pyc"]


def test_dist_is_reproducible(tmp_path):
    first = build.build(tmp_path / "one")
    second = build.build(tmp_path / "two")
    assert first == second


def test_app_lock_names_our_wheels_with_real_hashes(dist):
    manifest = json.loads((dist / "build.json").read_text())
    lock_path = dist / manifest["assets"] / "py" / "app-lock.json"
    lock = json.loads(lock_path.read_text())
    stock = json.loads((ROOT / "node_modules/pyodide/pyodide-lock.json").read_text())
    assert lock["info"] == stock["info"]
    assert set(lock["packages"]) == {"junqi-core", "micropip"}
    for name, entry in lock["packages"].items():
        wheel = lock_path.parent / entry["file_name"]
        assert entry["name"] == name
        assert entry["sha256"] == hashlib.sha256(wheel.read_bytes()).hexdigest()
    assert lock["packages"]["micropip"]["version"] == build.MICROPIP_VERSION


def test_new_content_gets_a_new_asset_folder(dist, tmp_path, monkeypatch):
    web = tmp_path / "web"
    shutil.copytree(build.WEB, web)
    with (web / "css" / "site.css").open("a") as f:
        f.write("\n.changed-by-test { color: red }\n")  # a comment alone is minified away
    monkeypatch.setattr(build, "WEB", web)
    changed = build.build(tmp_path / "dist")
    original = json.loads((dist / "build.json").read_text())
    assert changed["version"] != original["version"]
    index = (tmp_path / "dist" / "index.html").read_text()
    assert f"assets/{changed['version']}/" in index
    assert f"assets/{original['version']}/" not in index
    sw = (tmp_path / "dist" / "sw.js").read_text()
    assert f'"{changed["version"]}"' in sw


def test_service_worker_precaches_every_page_file(dist):
    sw = (dist / "sw.js").read_text()
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", sw, re.S).group(1))
    files = {p.relative_to(dist).as_posix() for p in dist.rglob("*") if p.is_file()}
    expected = {
        f
        for f in files - {"index.html", "sw.js", "build.json", ".nojekyll"}
        if "/micropip-" not in f
    }  # in the lock only; the game never loads it
    assert precache[0] == "./"
    assert set(precache[1:]) == expected
    assert all(not p.startswith("/") for p in precache)


def test_page_uses_only_relative_urls(dist):
    index = (dist / "index.html").read_text()
    urls = re.findall(r'(?:src|href)="([^"]*)"', index)
    assert urls
    for url in urls:
        assert not url.startswith(("/", "http:", "https:", "//")), url
        assert (dist / url).is_file(), url


def test_web_names_no_other_origin():
    for path in sorted(build.WEB.rglob("*")):
        if path.is_file() and path.suffix in (
            ".html",
            ".js",
            ".css",
            ".svg",
            ".webmanifest",
            ".json",
        ):
            text = path.read_text().replace(SVG_NAMESPACE, "")
            assert not re.search(r"https?://", text), path


def test_manifest_and_icons(dist):
    manifest = json.loads((dist / "build.json").read_text())
    assets = dist / manifest["assets"]
    web_manifest = json.loads((assets / "manifest.webmanifest").read_text())
    assert (assets / web_manifest["start_url"]).resolve() == dist.resolve()
    sizes = set()
    for icon in web_manifest["icons"]:
        assert (assets / icon["src"]).is_file(), icon
        sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes


def test_netlify_config_matches_the_tested_headers():
    config = tomllib.loads((ROOT / "netlify.toml").read_text())
    assert config["build"]["publish"] == "dist"
    assert "build.py" in config["build"]["command"]
    headers = {rule["for"]: rule["values"] for rule in config["headers"]}
    assert headers["/*"]["Content-Security-Policy"] == build.CSP
    assert "'unsafe-eval'" not in build.CSP and "'wasm-unsafe-eval'" in build.CSP
    assert headers["/pyodide/*/pyodide.asm.wasm"]["Content-Type"] == "application/wasm"
    for versioned in ("/assets/*", "/pyodide/*"):
        assert "immutable" in headers[versioned]["Cache-Control"]
    for entry in ("/", "/index.html", "/sw.js"):
        assert headers[entry]["Cache-Control"] == "no-cache"


def test_pages_workflow_builds_and_deploys():
    workflow = (ROOT / ".github/workflows/pages.yml").read_text()
    assert "python3 build.py test" in workflow
    assert "python3 build.py" in workflow
    assert "actions/deploy-pages" in workflow and "path: dist" in workflow


def test_pyodide_is_pinned():
    package = json.loads((ROOT / "package.json").read_text())
    assert package["dependencies"]["pyodide"] == build.PYODIDE_VERSION == "314.0.7"
    lock = json.loads((ROOT / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/pyodide"]["version"] == build.PYODIDE_VERSION


def test_readme_and_ci_use_the_same_two_commands():
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"```sh\n(.*?)```", readme, re.S).group(1)
    commands = [line for line in block.splitlines() if line.strip() and not line.startswith("#")]
    assert commands == ["python3 build.py serve", "python3 build.py test"]
    ci = ROOT / ".ci" / "run"
    assert ci.stat().st_mode & stat.S_IXUSR
    assert re.search(r"^exec python3 build\.py test$", ci.read_text(), re.M)


def test_no_tests_collected_is_a_failure(monkeypatch, tmp_path):
    """`build.py test` must not pass when pytest collects nothing (exit code 5)."""
    calls = []

    class Done:
        returncode = 5

    monkeypatch.setattr(build, "install_test_requirements", lambda: "python")
    monkeypatch.setattr(build, "build", lambda: calls.append("build"))
    monkeypatch.setattr(build.subprocess, "run", lambda *a, **k: calls.append(a) or Done())
    assert build.run_tests([]) == 1
    assert calls[0] == "build"


def test_build_test_runs_the_checks_and_prints_the_slowest_tests(monkeypatch):
    """`build.py test` runs ruff (lint and format) and the JS type check besides pytest,
    asks pytest for the slowest tests, and fails when a check fails even if pytest passes."""
    commands = []

    class Result:
        def __init__(self, code):
            self.returncode = code

    def run(command, **kwargs):
        commands.append(command)
        return Result(1 if command[-2:] == ["check", "."] else 0)

    monkeypatch.setattr(build, "install_test_requirements", lambda: "python")
    monkeypatch.setattr(build, "build", lambda: None)
    monkeypatch.setattr(build.subprocess, "run", run)
    assert build.run_tests(["tests/x.py"]) == 1  # ruff check failed, pytest passed
    ran = [" ".join(c) for c in commands]
    assert "python -m ruff check ." in ran
    assert "python -m ruff format --check ." in ran
    assert sum(1 for c in ran if "typescript/bin/tsc -p tsconfig" in c) == 2
    pytest_run = commands[-1]
    assert pytest_run[:3] == ["python", "-m", "pytest"]
    assert any(a.startswith("--durations=") for a in pytest_run) and pytest_run[-1] == "tests/x.py"

    commands.clear()
    monkeypatch.setattr(build.subprocess, "run", lambda c, **k: commands.append(c) or Result(0))
    assert build.run_tests([]) == 0


def test_the_type_check_covers_every_page_script():
    """tsconfig.json checks every script of web/js but the worker, tsconfig.worker.json the
    worker (its globals are a worker's, not a page's): nothing is left out."""
    import subprocess

    def listed(config):
        run = subprocess.run(
            ["node", str(build.TSC), "-p", config, "--listFilesOnly"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        assert run.returncode == 0, run.stdout + run.stderr
        return {
            Path(line).resolve().relative_to(ROOT).as_posix()
            for line in run.stdout.splitlines()
            if "/node_modules/" not in line and line.endswith(".js")
        }

    scripts = {p.relative_to(ROOT).as_posix() for p in (ROOT / "web" / "js").rglob("*.js")}
    assert listed("tsconfig.json") == scripts - {"web/js/worker.js"}
    assert listed("tsconfig.worker.json") == {"web/js/worker.js"}


def test_test_tools_are_pinned():
    """Every test tool at an exact version: the Python ones (and what they need) and the
    npm ones, so every machine runs the same checks."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for requirement in project["optional-dependencies"]["test"]:
        assert re.fullmatch(r"[A-Za-z0-9_.-]+==[0-9][0-9A-Za-z.]*", requirement), requirement
    constraints = (ROOT / "test-constraints.txt").read_text().splitlines()
    for line in constraints:
        if line.strip() and not line.startswith("#"):
            assert re.fullmatch(r"[a-z0-9_.-]+==[0-9][0-9A-Za-z.]*", line), line
    package = json.loads((ROOT / "package.json").read_text())
    lock = json.loads((ROOT / "package-lock.json").read_text())
    pins = {**package["dependencies"], **package["devDependencies"]}
    assert "typescript" in package["devDependencies"]
    for name, version in pins.items():
        assert re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+", version), (name, version)
        assert lock["packages"][f"node_modules/{name}"]["version"] == version, name


def test_files_are_where_docs_say(dist):
    manifest = json.loads((dist / "build.json").read_text())
    top = {p.name for p in dist.iterdir()}
    assert top == {"index.html", "sw.js", "build.json", ".nojekyll", "assets", "pyodide"}
    assert manifest["pyodide"] == f"pyodide/{build.PYODIDE_VERSION}"
    assert sorted(p.name for p in (dist / manifest["pyodide"]).iterdir()) == sorted(
        build.PYODIDE_FILES
    )
    assert Path(manifest["wheel"]).name.startswith("junqi_core-")


def test_serve_builds_and_prints_the_url():
    """`python3 build.py serve` builds dist/, serves it on 127.0.0.1 and prints the URL."""
    import subprocess
    import sys
    import urllib.request

    port = build.free_port()
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "build.py"), "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        line = proc.stdout.readline()
        url = f"http://127.0.0.1:{port}/"
        assert url in line, line
        with urllib.request.urlopen(url, timeout=10) as response:
            assert b"data-build=" in response.read()
        manifest = json.loads(urllib.request.urlopen(url + "build.json", timeout=10).read())
        wasm = f"{url}{manifest['pyodide']}/pyodide.asm.wasm"
        with urllib.request.urlopen(urllib.request.Request(wasm, method="HEAD")) as response:
            assert response.headers["Content-Type"] == "application/wasm"
            assert "immutable" in response.headers["Cache-Control"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_installs_are_skipped_only_when_they_would_change_nothing(monkeypatch, tmp_path):
    """`build.py test` skips `npm ci` when node_modules holds every locked package at its
    version and integrity, and pip when every pin is installed with this checkout's
    junqi_core editable; anything missing or different runs them, as on a fresh clone."""
    lock = {
        "packages": {
            "": {"name": "junqi-site"},
            "node_modules/a": {"version": "1.0.0", "integrity": "sha512-A"},
            "node_modules/@x/other-os": {"version": "2.0.0", "optional": True},
        }
    }
    (tmp_path / "package-lock.json").write_text(json.dumps(lock))
    monkeypatch.setattr(build, "ROOT", tmp_path)
    assert not build.node_modules_match_lock()  # a fresh clone: no node_modules
    package = tmp_path / "node_modules" / "a"
    package.mkdir(parents=True)
    (package / "package.json").write_text('{"version": "1.0.0"}')
    hidden = {"packages": {"node_modules/a": {"version": "1.0.0", "integrity": "sha512-A"}}}
    (tmp_path / "node_modules" / ".package-lock.json").write_text(json.dumps(hidden))
    assert build.node_modules_match_lock()
    (package / "package.json").write_text('{"version": "0.9.0"}')  # changed by hand
    assert not build.node_modules_match_lock()
    (package / "package.json").write_text('{"version": "1.0.0"}')
    hidden["packages"]["node_modules/a"]["integrity"] = "sha512-B"
    (tmp_path / "node_modules" / ".package-lock.json").write_text(json.dumps(hidden))
    assert not build.node_modules_match_lock()

    # pip: this checkout (tmp_path) has no editable install, and a pin nobody has
    pins = [f"pytest=={importlib.metadata.version('pytest')}"]
    monkeypatch.setattr(build, "test_pins", lambda: pins)
    assert not build.python_tools_installed(sys.executable)
    monkeypatch.setattr(build, "ROOT", ROOT)
    installed = build.python_tools_installed(sys.executable)
    pins.append("no-such-package-here==1.0")
    assert not build.python_tools_installed(sys.executable)
    pins[-1] = "pytest>=1"  # not an exact pin: pip decides
    assert not build.python_tools_installed(sys.executable)
    # the one at hand: editable from this checkout or not, as pip's own record says
    assert installed == (editable_url() == ROOT.as_uri())


def editable_url() -> str | None:
    """Where pip's record says junqi_core is installed from (None: not installed). Read in a
    child process outside the checkout: here the checkout's own junqi_core.egg-info (no pip
    record in it) comes first on the path."""
    script = (
        "import importlib.metadata as m, json\n"
        "try:\n"
        "    text = m.distribution('junqi_core').read_text('direct_url.json')\n"
        "except m.PackageNotFoundError:\n"
        "    text = None\n"
        "print(json.loads(text or '{}').get('url'))"
    )
    out = build.subprocess.run(
        [sys.executable, "-c", script], cwd="/", capture_output=True, text=True, check=True
    ).stdout.strip()
    return None if out == "None" else out
