#!/usr/bin/env python3
"""Build, serve and test the static site.

    python3 build.py            build dist/
    python3 build.py serve      build dist/, then serve it on http://127.0.0.1:PORT/
    python3 build.py test       install what the tests need, build, check, run every test

Standard library only. What ends up in dist/:

    index.html                       no-cache; names this build's asset folder
    sw.js                            no-cache; service worker with this build's precache list
    build.json                       build version and file list (for tests and tools)
    assets/<build>/...               the page (web/), the app lock file and the wheels
    pyodide/<pyodide version>/...    the Pyodide runtime, copied from node_modules

Everything under assets/<build>/ and pyodide/<version>/ is immutable: a new build with
different content gets a different <build> folder, so a new deploy never mixes with cached
files of an old one. See docs/site.md.
"""

from __future__ import annotations

import argparse
import base64
import csv
import functools
import gzip
import hashlib
import http.server
import importlib.util
import io
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
import zipfile
from pathlib import Path
from typing import ClassVar

ROOT = Path(__file__).resolve().parent
WEB = ROOT / "web"
DIST = ROOT / "dist"
CACHE = ROOT / "build" / "cache"

PYODIDE_VERSION = "314.0.7"
# Only what a browser needs: the package also has .d.ts, maps, node console pages.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
MICROPIP_VERSION = "0.11.1"
MICROPIP_WHEEL = f"micropip-{MICROPIP_VERSION}-py3-none-any.whl"
# The PyPI wheel: its sha256 differs from the one in Pyodide's own lock, so loading it by
# name through the stock lock fails the integrity check.
MICROPIP_SHA256 = "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"
# Used when SOURCE_DATE_EPOCH is unset, so every build is reproducible by default.
DEFAULT_EPOCH = 315619200  # 1980-01-02T00:00:00Z, inside the zip format's date range

# Files of web/ that are templates rendered into the dist root; the rest is copied into
# assets/<build>/ unchanged.
ROOT_TEMPLATES = ("index.html", "sw.js")


def log(msg: str) -> None:
    print(f"[build] {msg}", file=sys.stderr, flush=True)


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# --------------------------------------------------------------------------- wheel


def read_project() -> dict:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)["project"]


def source_epoch() -> int:
    return int(os.environ.get("SOURCE_DATE_EPOCH", DEFAULT_EPOCH))


def _zip_info(name: str, epoch: int) -> zipfile.ZipInfo:
    date_time = time.gmtime(max(epoch, 315532800))[:6]
    info = zipfile.ZipInfo(name, date_time=date_time)
    info.external_attr = 0o644 << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    info.create_system = 3  # unix, whatever OS builds it
    return info


_BYTECODE_SCRIPT = """
const [pyodideDir, sourcesPath, outPath] = process.argv.slice(1);
const { readFileSync, writeFileSync } = require("node:fs");
const { pathToFileURL } = require("node:url");
(async () => {
  const { loadPyodide } = await import(pathToFileURL(pyodideDir + "/pyodide.mjs").href);
  const py = await loadPyodide({ indexURL: pyodideDir + "/" });
  py.globals.set("sources_json", readFileSync(sourcesPath, "utf-8"));
  writeFileSync(outPath, py.runPython(`
import ast, base64, importlib.util, json, types
from importlib._bootstrap_external import _code_to_hash_pyc

def without_docstrings(tree):
    # Module and function docstrings go (nothing reads __doc__); class docstrings stay, as
    # a dataclass without one would make its own at import time. Asserts stay.
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            first = body[0].value if body and isinstance(body[0], ast.Expr) else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                node.body = body[1:] or [ast.copy_location(ast.Pass(), body[0])]
    return tree

def varint(value, out):
    while value >= 64:
        out.append(64 | (value & 63))
        value >>= 6
    out.append(value)

def lines_only(code):
    # The same line numbers (tracebacks name the line) without the columns, which are most
    # of a line table: entries "no column" (code 13) and "no location" (code 15).
    table, previous = bytearray(), code.co_firstlineno
    for start, end, line in code.co_lines():
        units = (end - start) // 2
        while units > 0:
            n = min(units, 8)
            units -= n
            if line is None:
                table.append(0x80 | (15 << 3) | (n - 1))
            else:
                table.append(0x80 | (13 << 3) | (n - 1))
                delta = line - previous
                varint(-delta << 1 | 1 if delta < 0 else delta << 1, table)
                previous = line
    consts = tuple(lines_only(c) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    slim = code.replace(co_linetable=bytes(table), co_consts=consts)
    if list(slim.co_lines()) != list(code.co_lines()):
        raise ValueError("line table rewritten wrongly in " + code.co_qualname)
    return slim

out = {}
for arc, text in sorted(json.loads(sources_json).items()):
    source = base64.b64decode(text)
    tree = without_docstrings(ast.parse(source, arc))
    code = lines_only(compile(tree, arc, "exec", dont_inherit=True))
    # hash-based, unchecked (no timestamp): the same bytes each build; in place of the source
    pyc = _code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False)
    out[arc[:-3] + ".pyc"] = base64.b64encode(pyc).decode()
json.dumps(out)
`));
})().catch((err) => { console.error(err); process.exit(1); });
"""


def pyodide_bytecode(pyodide_pkg: Path, sources: dict[str, bytes]) -> dict[str, bytes]:
    """Bytecode of these modules for the Python inside Pyodide, written by Pyodide itself in
    Node (CPython here is another version and cannot): `x.pyc` for each `x.py`, to ship in
    its place. A fresh interpreter and hash-based .pyc (no timestamps), so the same sources
    give the same bytes; kept in build/cache by the sources' hash, so a rebuild of the same
    sources (the tests build several sites) does not start Pyodide again."""
    key = hashlib.sha256(_BYTECODE_SCRIPT.encode() + PYODIDE_VERSION.encode())
    for arc, data in sorted(sources.items()):
        key.update(arc.encode() + b"\0" + hashlib.sha256(data).digest())
    kept = CACHE / f"bytecode-{key.hexdigest()[:16]}.json"  # a rebuild of the same sources
    if not kept.exists():
        node = shutil.which("node")
        if node is None:
            raise SystemExit("build: node not found; install Node.js/npm (Pyodide compiles on it)")
        CACHE.mkdir(parents=True, exist_ok=True)
        for old in CACHE.glob("bytecode-*.json"):
            old.unlink()
        sources_path, partial = kept.with_suffix(".sources"), kept.with_suffix(".part")
        encoded = {arc: base64.b64encode(data).decode() for arc, data in sources.items()}
        sources_path.write_text(json.dumps(encoded))
        subprocess.run(
            [node, "-e", _BYTECODE_SCRIPT, str(pyodide_pkg), str(sources_path), str(partial)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        sources_path.unlink()
        os.replace(partial, kept)
    return {arc: base64.b64decode(data) for arc, data in json.loads(kept.read_text()).items()}


def module_file(module: str, files: dict[str, bytes]) -> str:
    """The wheel entry holding a module's source: `a/b.py`, or `a/b/__init__.py`."""
    path = module.replace(".", "/")
    for arc in (f"{path}.py", f"{path}/__init__.py"):
        if arc in files:
            return arc
    raise SystemExit(f"build: no source for module {module}")


def build_wheel(
    out_dir: Path, epoch: int, pyodide_pkg: Path | None = None, compiled: tuple[str, ...] = ()
) -> Path:
    """Write a pure-Python wheel of the project; same sources -> same bytes. The modules
    named in `compiled` go in as bytecode for Pyodide's Python instead of source (the page's
    wheel: the modules the worker imports before the engine answers, so a first visit
    does not compile them), and every other module goes, as source, into a second archive
    beside it (`later_archive`): the worker fetches that after the engine is ready, so a
    first visit waits only for what the start imports."""
    project = read_project()
    name = project["name"].replace("-", "_")
    version = project["version"]
    package_dir = ROOT / name
    files: dict[str, bytes] = {}
    for path in sorted(package_dir.rglob("*")):
        rel = path.relative_to(ROOT)
        if path.is_dir() or "__pycache__" in rel.parts or path.suffix in (".pyc", ".pyo"):
            continue
        files[rel.as_posix()] = path.read_bytes()
    if f"{name}/__init__.py" not in files:
        raise SystemExit(f"build: {package_dir} has no __init__.py")
    if compiled:
        if pyodide_pkg is None:
            raise ValueError("build_wheel: compiling modules needs Pyodide's package")
        arcs = {module_file(module, files) for module in compiled}
        startup = pyodide_bytecode(pyodide_pkg, {arc: files.pop(arc) for arc in arcs})
        later = files
        files = startup

    dist_info = f"{name}-{version}.dist-info"
    meta = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {version}",
    ]
    if "description" in project:
        meta.append(f"Summary: {project['description']}")
    if "requires-python" in project:
        meta.append(f"Requires-Python: {project['requires-python']}")
    meta += [f"Requires-Dist: {dep}" for dep in project.get("dependencies", [])]
    files[f"{dist_info}/METADATA"] = ("\n".join(meta) + "\n").encode()
    files[f"{dist_info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: junqi build.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    scripts = project.get("scripts", {})
    if scripts:
        lines = ["[console_scripts]"] + [f"{k} = {v}" for k, v in sorted(scripts.items())]
        files[f"{dist_info}/entry_points.txt"] = ("\n".join(lines) + "\n").encode()

    record = io.StringIO()
    writer = csv.writer(record, lineterminator="\n")
    for arc, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        writer.writerow([arc, f"sha256={digest}", len(data)])
    writer.writerow([f"{dist_info}/RECORD", "", ""])
    files[f"{dist_info}/RECORD"] = record.getvalue().encode()

    out_dir.mkdir(parents=True, exist_ok=True)
    wheel = out_dir / f"{name}-{version}-py3-none-any.whl"
    if compiled:
        with zipfile.ZipFile(later_archive(wheel), "w") as zf:
            for arc in sorted(later):
                zf.writestr(_zip_info(arc, epoch), later[arc], compresslevel=9)
    with zipfile.ZipFile(wheel, "w") as zf:
        # Package files first, sorted; dist-info last with RECORD at the very end.
        record_last = lambda a: (a.startswith(dist_info), a == f"{dist_info}/RECORD", a)  # noqa: E731
        for arc in sorted(files, key=record_last):
            zf.writestr(_zip_info(arc, epoch), files[arc], compresslevel=9)
    return wheel


def later_archive(wheel: Path) -> Path:
    """The page wheel's second archive: the modules the start does not import, as source
    (a zip to unpack into site-packages as it is)."""
    return wheel.with_name(wheel.name.split("-py3-")[0] + "-later.zip")


# --------------------------------------------------------------------------- inputs


def node_pins() -> dict[str, str]:
    """The npm packages the build uses, at the exact versions package.json pins."""
    package = json.loads((ROOT / "package.json").read_text())
    pins = {**package.get("dependencies", {}), **package.get("devDependencies", {})}
    return {name: pins[name] for name in ("pyodide", "esbuild", "qrcode-generator", "jsqr")}


def ensure_node_modules() -> Path:
    """node_modules with Pyodide and esbuild at their pinned versions; runs `npm ci` when
    one is missing or differs. Returns Pyodide's package folder."""
    pins = node_pins()
    if pins["pyodide"] != PYODIDE_VERSION:
        raise SystemExit(
            f"build: package.json pins pyodide {pins['pyodide']}, need {PYODIDE_VERSION}"
        )

    def installed(name: str) -> str | None:
        try:
            return json.loads((ROOT / "node_modules" / name / "package.json").read_text())[
                "version"
            ]
        except (OSError, ValueError, KeyError):
            return None

    def stale() -> list[str]:
        return [
            f"{name} {installed(name)} (need {v})"
            for name, v in pins.items()
            if installed(name) != v
        ]

    if stale():
        npm = shutil.which("npm")
        if npm is None:
            raise SystemExit("build: npm not found; install Node.js/npm (Pyodide comes from npm)")
        log("npm ci (vendoring Pyodide and esbuild from the npm registry)")
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=ROOT, check=True)
    if stale():
        raise SystemExit(f"build: node_modules has {', '.join(stale())}")
    return ROOT / "node_modules" / "pyodide"


# The page's JavaScript as the browser gets it: the shell (main.js: engine, loader) and the
# game UI (app.js and everything under ui/) bundled, so the start screen costs a few
# requests instead of twenty; the worker stays on its own. Code split: what a bundle loads
# with import() on first use (the game, replay and friend screens: ui/view/screens.js)
# goes into chunks of its own (js/<name>-<hash>.js), as does code bundles share.
BUNDLES = ("js/main.js", "js/app.js", "js/net/qrscan.js")
START = ("js/main.js", "js/app.js")  # the start screen: preloaded with what they import
EXTERNAL = ("./build-info.js",)  # generated after bundling
UNBUNDLED = ("js/worker.js",)  # a worker is no page module: minified on its own
CLASSIC = ("js/theme.js",)  # classic scripts in <head> (the colours before the first paint)


def minify(folder: Path) -> list[str]:
    """Bundle and minify the page's JavaScript, minify its CSS, in place, with the pinned
    esbuild (its JS API finds the platform's binary whether or not npm ran esbuild's
    install script). Bundles keep `new URL(..., import.meta.url)` as written, so main.js
    finds worker.js and app.js beside it. Returns the scripts the start screen runs (the
    START bundles and the chunks they import statically, from esbuild's metafile; not what
    they load with import()), paths relative to `folder`."""
    scripts = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.js"))
    singles = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.css"))
    singles += [rel for rel in scripts if rel in UNBUNDLED + CLASSIC]
    node = shutil.which("node")
    if node is None:
        raise SystemExit("build: node not found; install Node.js/npm (esbuild runs on it)")
    common = {
        "absWorkingDir": str(folder),
        "outbase": str(folder),
        "allowOverwrite": True,
        "minify": True,
        "legalComments": "none",
        "charset": "utf8",
        "logLevel": "warning",
    }
    with tempfile.TemporaryDirectory() as out:
        jobs = [
            {
                **common,
                "entryPoints": [b for b in BUNDLES if b in scripts],
                "bundle": True,
                "format": "esm",
                "splitting": True,
                "chunkNames": "js/[name]-[hash]",
                "metafile": True,
                "external": list(EXTERNAL),
                # npm packages the page bundles (the QR encoder), wherever the build goes
                "nodePaths": [str(ROOT / "node_modules")],
                "outdir": out,
            },
            {**common, "entryPoints": singles, "outdir": str(folder)},
        ]
        script = (
            "const esbuild = require(process.argv[1]);"
            "const metas = JSON.parse(process.argv[2]).map((job) => esbuild.buildSync(job));"
            "require('fs').writeFileSync(process.argv[3], JSON.stringify(metas[0].metafile));"
        )
        esbuild = str(ROOT / "node_modules" / "esbuild")
        meta_file = Path(out) / "meta.json"
        subprocess.run([node, "-e", script, esbuild, json.dumps(jobs), str(meta_file)], check=True)
        start = start_scripts(json.loads(meta_file.read_text()), folder, Path(out))
        meta_file.unlink()
        # Only the bundles and the worker stay: their modules are inside the bundles.
        for rel in scripts:
            if rel not in singles:
                (folder / rel).unlink()
        for bundle in Path(out).rglob("*.js"):
            shutil.copyfile(bundle, folder / bundle.relative_to(out))
    for empty in sorted((p for p in folder.rglob("*") if p.is_dir()), reverse=True):
        if not any(empty.iterdir()):
            empty.rmdir()
    return start


def start_scripts(meta: dict, folder: Path, out: Path) -> list[str]:
    """The START bundles and every chunk they import statically (esbuild's metafile: its
    paths are relative to `folder`, the outputs are in `out`), relative to `out`."""
    outputs = {
        (folder / key).resolve().relative_to(out.resolve()).as_posix(): value
        for key, value in meta["outputs"].items()
        if key.endswith(".js")
    }
    seen: list[str] = []
    todo = [rel for rel in START if rel in outputs]
    while todo:
        rel = todo.pop()
        if rel in seen:
            continue
        seen.append(rel)
        for imp in outputs[rel]["imports"]:
            if imp["kind"] == "import-statement" and not imp.get("external"):
                todo.append((folder / imp["path"]).resolve().relative_to(out.resolve()).as_posix())
    return sorted(seen)


def ensure_micropip() -> Path:
    """The micropip wheel from PyPI, cached in build/cache and checked against its sha256."""
    wheel = CACHE / MICROPIP_WHEEL
    if not wheel.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        log(f"downloading micropip=={MICROPIP_VERSION} from PyPI")
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run(
                [
                    pip_python(),
                    "-m",
                    "pip",
                    "download",
                    "--no-deps",
                    "--quiet",
                    "--python-version",
                    "3.13",
                    "--only-binary=:all:",
                    f"micropip=={MICROPIP_VERSION}",
                    "-d",
                    tmp,
                ],
                check=True,
            )
            shutil.move(str(Path(tmp) / MICROPIP_WHEEL), wheel)
    digest = sha256_file(wheel)
    if digest != MICROPIP_SHA256:
        wheel.unlink()
        raise SystemExit(f"build: {MICROPIP_WHEEL} has sha256 {digest}, expected {MICROPIP_SHA256}")
    return wheel


# --------------------------------------------------------------------------- build

START_DATA = "js/start-data.js"  # under assets/<build>/: what the start screen is drawn from

_ENGINE_DATA_SCRIPT = """
import json, sys
from junqi_core.bridge import handle
ask = lambda op: json.loads(handle(json.dumps({"op": op})))
out = {"version": ask("version"), "variants": ask("variants")["variants"]}
sys.stdout.write(json.dumps(out, ensure_ascii=False, separators=(",", ":"), sort_keys=True))
"""


def start_data(engine: str, english: str) -> str:
    """A module holding the engine's static answers and the English strings (the fallback
    of every language): main.js imports it beside app.js (index.html preloads both), so the
    start screen is drawn with no fetch of its own. JSON inside a string literal: V8 reads
    that faster than an object literal of the same size."""
    return (
        "// Generated by build.py: the bridge's version and variants answers, and the English\n"
        "// strings, so the start screen needs no request of its own.\n"
        f"export const ENGINE = JSON.parse({json.dumps(engine, ensure_ascii=False)});\n"
        f"export const ENGLISH = JSON.parse({json.dumps(english, ensure_ascii=False)});\n"
    )


def engine_data() -> str:
    """The bridge's "version" and "variants" answers, asked in CPython at build time: the
    page draws the start screen, the boards and the rules from them before Pyodide has
    started. A fresh interpreter, so the answer is always from the sources on disk."""
    run = subprocess.run(
        [sys.executable, "-c", _ENGINE_DATA_SCRIPT],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"},
    )
    if run.returncode != 0:
        raise SystemExit(f"build: the engine's variants op failed:\n{run.stderr}")
    return run.stdout


def engine_modules() -> list[str]:
    """The engine's modules that the bridge imports, each after those it needs (the order
    CPython finishes importing them, from `-X importtime`): the worker imports them one by
    one before it answers, so the page can count them. The rest (friend play's `fair`, the
    deduction notes) are imported when first used."""
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import junqi_core.bridge"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    if run.returncode != 0:
        raise SystemExit(f"build: the engine's bridge does not import:\n{run.stderr}")
    names: list[str] = []
    for line in run.stderr.splitlines():
        name = line.rpartition("|")[2].strip()
        engine = re.fullmatch(r"junqi_core(\.\w+)*", name)
        if line.startswith("import time:") and engine and name not in names:
            names.append(name)
    if names[-1:] != ["junqi_core.bridge"]:
        raise SystemExit(f"build: could not read the bridge's imports:\n{run.stderr[-2000:]}")
    return names


# Friend games over the internet ask a STUN server for the browser's public address. The
# build decides which: JUNQI_STUN="stun:host:port[,stun:...]", or empty for none (the page
# then offers only "same network"). The page names the server before anything is sent.
DEFAULT_STUN = "stun:stun.l.google.com:19302"


def stun_servers() -> list[str]:
    raw = os.environ.get("JUNQI_STUN", DEFAULT_STUN)
    urls = [u.strip() for u in raw.split(",") if u.strip()]
    for url in urls:
        if not re.fullmatch(r"stuns?:[A-Za-z0-9.-]+(:\d{1,5})?", url):
            raise SystemExit(f"build: JUNQI_STUN: {url!r} is not a stun:host[:port] URL")
    return urls


def canonical_name(name: str) -> str:
    """PEP 503 name, the form Pyodide looks packages up by ("junqi_core" -> "junqi-core")."""
    return re.sub(r"[-_.]+", "-", name).lower()


def app_lock(stock_lock: dict, wheels: dict[str, tuple[Path, list[str]]]) -> dict:
    """A Pyodide lock file naming only our wheels, each with its real sha256."""
    packages = {}
    for raw_name, (path, imports) in sorted(wheels.items()):
        name = canonical_name(raw_name)
        version = path.name.split("-")[1]
        packages[name] = {
            "name": name,
            "version": version,
            "file_name": path.name,
            "install_dir": "site",
            "sha256": sha256_file(path),
            "package_type": "package",
            "imports": imports,
            "depends": [],
            "unvendored_tests": False,
        }
    return {"info": stock_lock["info"], "packages": packages}


def render(template: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        template = template.replace(f"%%{key}%%", value)
    if "%%" in template:
        start = template.index("%%")
        raise SystemExit(f"build: unrendered placeholder near {template[start : start + 40]!r}")
    return template


def build(out: Path = DIST) -> dict:
    """Build the site into `out` (replaced atomically); returns the build manifest."""
    epoch = source_epoch()
    pyodide_pkg = ensure_node_modules()
    micropip = ensure_micropip()

    tmp = out.with_name(out.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)

    # Pyodide runtime, under its own version: unchanged across our deploys.
    pyodide_rel = f"pyodide/{PYODIDE_VERSION}"
    for name in PYODIDE_FILES:
        (tmp / pyodide_rel).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(pyodide_pkg / name, tmp / pyodide_rel / name)

    # Stage this build's assets, hash them, then move them under assets/<build>/.
    stage = tmp / "assets" / "_stage"
    for src in sorted(WEB.rglob("*")):
        rel = src.relative_to(WEB)
        if src.is_dir() or rel.as_posix() in ROOT_TEMPLATES or src.name.startswith("."):
            continue
        (stage / rel).parent.mkdir(parents=True, exist_ok=True)
        if src.suffix == ".json":  # strings for the page: no indentation on the wire
            data = json.loads(src.read_text(encoding="utf-8"))
            text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
            (stage / rel).write_text(text, encoding="utf-8")
        else:
            shutil.copyfile(src, stage / rel)
    start = minify(stage)
    english = (stage / "i18n" / "en.json").read_text(encoding="utf-8")
    (stage / START_DATA).write_text(start_data(engine_data(), english), encoding="utf-8")
    py_dir = stage / "py"
    startup = engine_modules()
    game_wheel = build_wheel(py_dir, epoch, pyodide_pkg, tuple(startup))
    shutil.copyfile(micropip, py_dir / micropip.name)
    project_name = read_project()["name"].replace("-", "_")
    stock_lock = json.loads((pyodide_pkg / "pyodide-lock.json").read_text())
    lock = app_lock(
        stock_lock,
        {
            project_name: (game_wheel, [project_name]),
            "micropip": (py_dir / micropip.name, ["micropip"]),
        },
    )
    (py_dir / "app-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True) + "\n")

    staged = sorted(p for p in stage.rglob("*") if p.is_file())
    digest = hashlib.sha256(PYODIDE_VERSION.encode())
    for path in staged:
        digest.update(path.relative_to(stage).as_posix().encode() + b"\0")
        digest.update(sha256_file(path).encode())
    version = digest.hexdigest()[:12]
    assets_rel = f"assets/{version}"
    stage.rename(tmp / assets_rel)

    # Files the engine downloads at start, with their sizes, for a real progress bar.
    downloads = {
        f"{pyodide_rel}/pyodide.asm.wasm": None,
        f"{pyodide_rel}/python_stdlib.zip": None,
        f"{assets_rel}/py/app-lock.json": None,
        f"{assets_rel}/py/{game_wheel.name}": None,
    }
    downloads = {rel: (tmp / rel).stat().st_size for rel in downloads}
    wheel_sha256 = sha256_file(tmp / assets_rel / "py" / game_wheel.name)
    build_info = {
        "version": version,
        "engine": project_name,
        "pyodide": PYODIDE_VERSION,
        "pyodideURL": f"{pyodide_rel}/pyodide.mjs",
        "lockURL": f"{assets_rel}/py/app-lock.json",
        "packages": [canonical_name(project_name)],
        # The worker fetches the wheel itself, in parallel with the runtime, and the
        # browser checks it against this (Subresource Integrity).
        "wheelURL": f"{assets_rel}/py/{game_wheel.name}",
        "wheelIntegrity": f"sha256-{base64.b64encode(bytes.fromhex(wheel_sha256)).decode()}",
        "engineModules": startup,
        # The engine's other modules (friend play, the notes, ...), as source: fetched by the
        # worker once the engine is ready, checked against this sha256 before unpacking.
        "laterURL": f"{assets_rel}/py/{later_archive(game_wheel).name}",
        "laterSha256": sha256_file(later_archive(tmp / assets_rel / "py" / game_wheel.name)),
        "downloads": downloads,
        # Friend games "over the internet": the STUN server(s) the page names to the player
        # and asks, only when the player chooses that (docs/fair-play.md, "The page").
        "stun": stun_servers(),
    }
    (tmp / assets_rel / "js" / "build-info.js").write_text(
        "// Generated by build.py; paths are relative to the site root (index.html).\n"
        f"export const BUILD = {json.dumps(build_info, indent=2, sort_keys=True)};\n"
    )

    # Everything the start screen needs, fetched in parallel with main.js instead of one
    # import after another: the start screen's modules (not the engine's worker, not the
    # chunks loaded on first use), build-info.js and start-data.js (the static engine
    # answers and the English strings). The service worker precaches every file (below).
    modules = sorted({*start, START_DATA, "js/build-info.js"} - {"js/main.js"})
    preload = [f'<link rel="modulepreload" href="{assets_rel}/{m}">' for m in modules]
    values = {"VERSION": version, "ASSETS": assets_rel, "PRELOAD": "\n  ".join(preload)}
    (tmp / "index.html").write_text(render((WEB / "index.html").read_text(), values))
    (tmp / ".nojekyll").write_text("")

    # Precache list for the service worker: every page file, "./" standing for index.html.
    # micropip is only in the lock (Pyodide can verify it); the game never loads it, so
    # first visits do not download it.
    precache = [
        "./",
        *sorted(
            p.relative_to(tmp).as_posix()
            for p in tmp.rglob("*")
            if p.is_file()
            and p.relative_to(tmp).as_posix() not in ("index.html", ".nojekyll")
            and p.name != micropip.name
        ),
    ]
    values = {"VERSION": version, "PRECACHE": json.dumps(precache, indent=2)}
    (tmp / "sw.js").write_text(render((WEB / "sw.js").read_text(), values))

    files = {
        p.relative_to(tmp).as_posix(): {"bytes": p.stat().st_size, "sha256": sha256_file(p)}
        for p in sorted(tmp.rglob("*"))
        if p.is_file()
    }
    manifest = {
        "version": version,
        "assets": assets_rel,
        "pyodide": pyodide_rel,
        "wheel": f"{assets_rel}/py/{game_wheel.name}",
        "source_date_epoch": epoch,
        "files": files,
    }
    (tmp / "build.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")

    old = out.with_name(out.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if out.exists():
        out.rename(old)
    tmp.rename(out)
    shutil.rmtree(old, ignore_errors=True)
    total = sum(f["bytes"] for f in files.values())
    log(f"built {out} version {version}: {len(files)} files, {total / 1e6:.1f} MB")
    return manifest


# --------------------------------------------------------------------------- first visit

# What a first visit costs (bench/bytes.py prints it, tests/browser/test_site.py keeps it):
# every file the page fetches until the engine is ready, at its gzip -9 size (as hosts
# send it; the wheel and the zip barely shrink), ours against Pyodide's. Ours may be at
# most this share of Pyodide's: on a slow line each byte is waited for.
FIRST_VISIT_SHARE = 0.05
LINES = {"slow, 1.5 Mbit/s": 1.5e6, "fast, 50 Mbit/s": 50e6}  # bits per second


def first_visit_bytes(root: Path, fetched) -> dict[str, dict[str, int]]:
    """{"ours": {file: gzip bytes}, "pyodide": {...}} for these site-relative paths (a
    server log's; "" or "/" is index.html); each file counted once."""
    parts: dict[str, dict[str, int]] = {"ours": {}, "pyodide": {}}
    for rel in dict.fromkeys(r.lstrip("/") or "index.html" for r in fetched):
        path = root / rel
        if path.is_file():
            side = "pyodide" if rel.startswith("pyodide/") else "ours"
            parts[side][rel] = len(gzip.compress(path.read_bytes(), 9))
    return parts


def line_seconds(n_bytes: int, bits_per_second: float) -> float:
    """Time to move these bytes over a line of this speed (no round trips counted)."""
    return n_bytes * 8 / bits_per_second


# --------------------------------------------------------------------------- serve

CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; "
    "connect-src 'self'; img-src 'self' data:; style-src 'self'; manifest-src 'self'; "
    "object-src 'none'; base-uri 'self'; form-action 'none'; frame-ancestors 'none'"
)


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a dist/ folder like netlify.toml asks: MIME types, cache headers, CSP.

    `base` mounts the site under a sub-path ("/" or "/some/path/"). Subclasses may
    override `fault(rel)` to break a build on purpose in tests.
    """

    base = "/"
    csp: str | None = CSP
    quiet = True
    # Shared per server, see SiteServer.
    log_entries: list | None = None
    request_entries: list | None = None

    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".json": "application/json",
        ".webmanifest": "application/manifest+json",
        ".whl": "application/zip",
        ".zip": "application/zip",
        ".svg": "image/svg+xml",
    }

    def fault(self, rel: str) -> tuple | None:
        """None, or how to answer instead: (status, headers) -- status 200 serves the file
        with those headers replaced -- or (status, headers, body bytes)."""
        return None

    def rel_path(self) -> str | None:
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        if not path.startswith(self.base):
            return None
        return path[len(self.base) :]

    def translate_path(self, path: str) -> str:
        rel = self.rel_path()
        if rel is None:
            return str(Path(self.directory) / "\0missing")
        return super().translate_path("/" + rel)

    def do_GET(self) -> None:
        self._override = None  # one handler serves every request of a keep-alive connection
        self._started = time.time()
        rel = self.rel_path()
        if rel is None and self.path.split("?")[0] == self.base.rstrip("/"):
            self.send_response(301)
            self.send_header("Location", self.base)
            self.end_headers()
            return
        if rel is not None:
            broken = self.fault(rel)
            if broken is not None:
                status, headers, *body = broken
                if body:  # serve these bytes instead of the file
                    self.send_response(status)
                    for key, value in {
                        "Content-Type": "application/octet-stream",
                        **headers,
                    }.items():
                        self.send_header(key, value)
                    self.send_header("Content-Length", str(len(body[0])))
                    self.end_headers()
                    self.wfile.write(body[0])
                    self._record(rel, status, len(body[0]))
                    return
                if status == 200:  # serve the file, but with replaced headers
                    self._override = headers
                else:
                    self.send_response(status)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    self._record(rel, status, 0)
                    return
        super().do_GET()

    def send_header(self, keyword: str, value: str) -> None:
        override = getattr(self, "_override", None)
        if override:
            value = next((v for k, v in override.items() if k.lower() == keyword.lower()), value)
        super().send_header(keyword, value)

    def end_headers(self) -> None:
        rel = self.rel_path() or ""
        if rel.startswith(("assets/", "pyodide/")):
            self.send_header("Cache-Control", "public, max-age=31536000, immutable")
        else:
            self.send_header("Cache-Control", "no-cache")
        if self.csp:
            self.send_header("Content-Security-Policy", self.csp)
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def copyfile(self, source, outputfile) -> None:  # count bytes actually sent
        data = source.read()
        try:
            outputfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the browser went away
            return
        self._record(self.rel_path() or self.path, 200, len(data))

    def _record(self, rel: str, status: int, size: int) -> None:
        if self.log_entries is not None:
            started = getattr(self, "_started", time.time())
            self.log_entries.append((rel, status, size, started))

    def log_request(self, code="-", size="-") -> None:
        if self.request_entries is not None:
            self.request_entries.append((self.path, int(getattr(code, "value", code))))
        super().log_request(code, size)

    def log_message(self, format: str, *args) -> None:
        if not self.quiet:
            super().log_message(format, *args)


class SiteServer:
    """A threaded HTTP server for a built site on 127.0.0.1; use as a context manager."""

    def __init__(
        self,
        root: Path = DIST,
        port: int = 0,
        base: str = "/",
        handler: type[SiteHandler] = SiteHandler,
        quiet: bool = True,
        csp: str | None = CSP,
        **handler_attrs,
    ) -> None:
        if not base.startswith("/") or not base.endswith("/"):
            raise ValueError("base must start and end with '/'")
        # (path relative to base, status, body bytes, time the request came in) for each
        # file or fault answered.
        self.log: list[tuple[str, int, int]] = []
        # (raw request path, status) for every request, including 404s outside base.
        self.requests: list[tuple[str, int]] = []
        attrs = {
            "base": base,
            "quiet": quiet,
            "log_entries": self.log,
            "csp": csp,
            "request_entries": self.requests,
            **handler_attrs,
        }
        cls = type("BoundSiteHandler", (handler,), attrs)
        handler_factory = functools.partial(cls, directory=str(root))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler_factory)
        self.httpd.daemon_threads = True
        self.base = base
        self.thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return self.httpd.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{self.base}"

    def start(self) -> SiteServer:
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self) -> SiteServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(port: int, base: str) -> None:
    build()
    server = SiteServer(DIST, port=port or free_port(), base=base, quiet=False)
    print(f"Serving the game at {server.url}  (Ctrl+C to stop)", flush=True)
    try:
        server.httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.httpd.server_close()


# --------------------------------------------------------------------------- test

# Debian's chromium first; GitHub's Ubuntu runners have Google Chrome (chromium-browser on
# Ubuntu may be a snap wrapper, so it comes last).
CHROMIUM_CANDIDATES = ("chromium", "google-chrome", "google-chrome-stable", "chromium-browser")
# Headless flags for tests and benches: no background traffic, no sandbox
# as root, no /dev/shm in containers.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
]


def find_chromium() -> str | None:
    env = os.environ.get("CHROMIUM")
    if env:
        return env
    for name in CHROMIUM_CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


def externally_managed() -> bool:
    import sysconfig

    marker = Path(sysconfig.get_path("stdlib")) / "EXTERNALLY-MANAGED"
    return marker.exists() and sys.prefix == sys.base_prefix


def venv_python() -> str:
    """Python of the project's .venv, created on first use (with pip, unlike some system
    Pythons). On Debian without python3-venv, installs it when running as root."""
    venv = ROOT / ".venv"
    python = venv / "bin" / "python"
    if not python.exists():
        log("creating .venv")
        result = subprocess.run([sys.executable, "-m", "venv", str(venv)])
        if result.returncode != 0 and os.geteuid() == 0 and shutil.which("apt-get"):
            env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
            subprocess.run(["apt-get", "update"], check=True, env=env)
            package = f"python3.{sys.version_info.minor}-venv"
            subprocess.run(["apt-get", "install", "-y", package], check=True, env=env)
            shutil.rmtree(venv, ignore_errors=True)
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        elif result.returncode != 0:
            raise SystemExit("build: cannot create .venv (install python3-venv)")
    return str(python)


def pip_python() -> str:
    """An interpreter that has pip: this one, or the project's .venv."""
    if importlib.util.find_spec("pip") is not None:
        return sys.executable
    return venv_python()


def test_python() -> str:
    """The interpreter to install test requirements into (a .venv if pip is locked)."""
    if not externally_managed() and importlib.util.find_spec("pip") is not None:
        return sys.executable
    return venv_python()


def has_cjk_font() -> bool:
    """Whether the 军棋 / 軍人将棋 glyphs and the Chinese and Japanese pages can be drawn
    (only the test screenshots depend on it: users' machines have such fonts)."""
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return False
    found = subprocess.run([fc_list, ":lang=zh", "family"], capture_output=True, text=True)
    return bool(found.stdout.strip())


def install_test_requirements() -> str:
    can_apt = os.geteuid() == 0 and shutil.which("apt-get") is not None
    packages = []
    if find_chromium() is None:
        if not can_apt:
            raise SystemExit(
                "build: no Chromium found; install it (apt-get install chromium) "
                "or set CHROMIUM=/path/to/chromium"
            )
        packages.append("chromium")
    if can_apt and not has_cjk_font():
        packages.append("fonts-wqy-zenhei")
    if packages:
        log(f"installing Debian's {' and '.join(packages)} (apt-get)")
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", *packages], check=True, env=env)
    python = test_python()
    if python_tools_installed(python):
        log("test tools and the editable junqi_core already installed: no pip run")
    else:
        log("pip install -e .[test] -c test-constraints.txt")
        pip = [python, "-m", "pip", "install", "--quiet"]
        subprocess.run([*pip, "-e", ".[test]", "-c", "test-constraints.txt"], cwd=ROOT, check=True)
    if node_modules_match_lock():
        log("node_modules already match package-lock.json: no npm ci")
    else:
        npm = shutil.which("npm")
        if npm is None:
            raise SystemExit("build: npm not found; install Node.js/npm")
        log("npm ci")
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=ROOT, check=True)
    return python


# Run in the test interpreter: exit 0 when every pin is installed at its version and
# junqi_core is installed editable from this folder (argv: the folder's URL, then pins).
_INSTALLED_SCRIPT = """
import importlib.metadata as m, json, sys
url, pins = sys.argv[1], sys.argv[2:]
try:
    ok = all(m.version(n) == v for n, v in (p.split("==") for p in pins))
    direct = json.loads(m.distribution("junqi_core").read_text("direct_url.json") or "{}")
except m.PackageNotFoundError:
    sys.exit(1)
editable = direct.get("url") == url and direct.get("dir_info", {}).get("editable")
sys.exit(0 if ok and editable else 1)
"""


def test_pins() -> list[str]:
    """Every exact pin `pip install -e .[test] -c test-constraints.txt` asks for."""
    pins = [*read_project()["optional-dependencies"]["test"]]
    for line in (ROOT / "test-constraints.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            pins.append(line)
    return pins


def python_tools_installed(python: str) -> bool:
    """Whether pip would change nothing: the test tools and their dependencies at the pinned
    versions, and this checkout's junqi_core installed editable (a fresh machine, a bumped
    pin or another checkout's install runs pip). Saves its seconds on every test run."""
    pins = test_pins()
    if not all(re.fullmatch(r"[A-Za-z0-9_.-]+==[A-Za-z0-9_.+-]+", p) for p in pins):
        return False  # a range or an extra: leave the decision to pip
    args = [python, "-c", _INSTALLED_SCRIPT, ROOT.as_uri(), *pins]
    return subprocess.run(args, cwd=tempfile.gettempdir(), capture_output=True).returncode == 0


def node_modules_match_lock() -> bool:
    """Whether `npm ci` would install the same: every package of package-lock.json that is
    not optional is in node_modules at the locked version and integrity, as npm's own record
    of the install (node_modules/.package-lock.json) says and each package.json confirms."""
    try:
        locked = json.loads((ROOT / "package-lock.json").read_text())["packages"]
        have = json.loads((ROOT / "node_modules" / ".package-lock.json").read_text())["packages"]
    except (OSError, ValueError, KeyError):
        return False
    for path, entry in locked.items():
        if not path or entry.get("optional") or entry.get("link"):
            continue
        got = have.get(path, {})
        if any(got.get(key) != entry.get(key) for key in ("version", "integrity")):
            return False
        try:
            version = json.loads((ROOT / path / "package.json").read_text()).get("version")
        except (OSError, ValueError):
            return False
        if version != entry.get("version"):
            return False
    return True


# The checks `build.py test` runs besides the tests, each a command that fails when unclean:
# the Python style (ruff, configured in pyproject.toml) and the page's JavaScript types
# (tsc --checkJs over the JSDoc types, tsconfig.json; the worker has its own globals).
TSC = ROOT / "node_modules" / "typescript" / "bin" / "tsc"


def checks(python: str) -> dict[str, list[str]]:
    return {
        "ruff check": [python, "-m", "ruff", "check", "."],
        "ruff format": [python, "-m", "ruff", "format", "--check", "."],
        "tsc (page)": ["node", str(TSC), "-p", "tsconfig.json"],
        "tsc (worker)": ["node", str(TSC), "-p", "tsconfig.worker.json"],
    }


def run_checks(python: str) -> list[str]:
    """Run every check; returns the names of those that failed (their output is shown)."""
    failed = []
    for name, command in checks(python).items():
        started = time.perf_counter()
        code = subprocess.run(command, cwd=ROOT).returncode
        log(f"{name}: {'ok' if code == 0 else 'FAILED'} ({time.perf_counter() - started:.1f} s)")
        if code != 0:
            failed.append(name)
    return failed


# Always printed: the slowest tests, so a slow one is seen when it comes (the suite's
# budget is 12 minutes on two cores; long measurements belong in bench/). One process: two
# pytest-xdist workers measured 9-11% slower on the shared two cores (docs/site.md, "Tests").
PYTEST_DEFAULTS = ["--durations=15"]


def run_tests(pytest_args: list[str]) -> int:
    python = install_test_requirements()
    build()
    failed = run_checks(python)
    args = [*PYTEST_DEFAULTS, *pytest_args]
    log(f"{Path(python).name} -m pytest {' '.join(args)}")
    code = subprocess.run([python, "-m", "pytest", *args], cwd=ROOT).returncode
    if code == 5:
        log("pytest collected no tests: that is a failure")
        code = 1
    if failed:
        log(f"checks failed: {', '.join(failed)}")
        return code or 1
    return code


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("build", help="build dist/ (the default)")
    p_serve = sub.add_parser("serve", help="build, then serve dist/ on 127.0.0.1")
    p_serve.add_argument("--port", type=int, default=0, help="default: a free port")
    p_serve.add_argument("--base", default="/", help="serve under this sub-path, e.g. /junqi/")
    p_test = sub.add_parser("test", help="install test needs, build, run the checks and all tests")
    p_test.add_argument("pytest_args", nargs=argparse.REMAINDER, help="passed to pytest")
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["test"]:  # everything after "test" goes to pytest, options included
        return run_tests(argv[1:])
    args = parser.parse_args(argv)
    if args.command == "serve":
        serve(args.port, args.base)
        return 0
    if args.command == "test":
        return run_tests(args.pytest_args)
    build()
    return 0


if __name__ == "__main__":
    sys.exit(main())
