#!/usr/bin/env python3
"""The page's code in figures (issue 37): how big its classes are, where variant names are
tested, and where views call the engine.

    python3 bench/page_shape.py [--root web/js]

Printed, for every class in web/js/ui/ctrl/ and web/js/ui/view/ (and app.js):
- lines of the class and its methods (a method: a line at the class's first indent that
  opens a method; methods an object lends to a class's prototype with
  `Object.assign(X.prototype, obj)` count for X);
- every test of a variant's name or class outside the code that passes the id through:
  `=== "classic"`, `variant !== "blind"`, `desc.id === "gunjin"`, `.friend` flags and the like;
- every place in ui/view/ that calls the engine (`engine.call(`) or hands the engine to a
  function that calls it (`f(app.engine, ...)`).

Counted with regular expressions over the source text, so the figures are reproducible by
anyone with a text editor (comments are skipped).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

VARIANTS = "classic|blind|gunjin|siguo"
VARIANT_TEST = re.compile(
    rf"""(===|!==|==|!=)\s*["'`]({VARIANTS})["'`]|["'`]({VARIANTS})["'`]\s*(===|!==|==|!=)"""
)
# Which kind of game controller this is (the friend subclass's flag, instanceof); not
# `saves.friend`, the friend game's storage.
KIND_TEST = re.compile(
    r"(?<!saves)\.friend\b(?!\s*[.:=(])|instanceof\s+(FriendGame|GameController)"
)
# Branches on the game's mode inside the controller (ctrl/game.js).
MODE_TEST = re.compile(r"\bthis\.(cpu|friend)\b|opts\.mode|mode\s*===")
STRING = re.compile(r""""(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'""")
METHOD = re.compile(
    r"^(static\s+)?(async\s+)?(get\s+|set\s+)?\*?#?[A-Za-z_$][\w$]*\s*\(.*\)\s*\{\s*$"
)
ENGINE_CALL = re.compile(
    r"engine\.call\(|\(\s*(app\.|this\.app\.)?engine\b\s*[,)]|,\s*(app\.|this\.app\.)engine\b"
)


def code_lines(path: Path) -> list[str]:
    """The file's lines with comments blanked (// to the end of a line, /* ... */ blocks)."""
    out = []
    block = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if block:
            if "*/" in line:
                line = line.split("*/", 1)[1]
                block = False
            else:
                out.append("")
                continue
        stripped = line.lstrip()
        if stripped.startswith("/*") or stripped.startswith("/**"):
            if "*/" not in stripped:
                block = True
            out.append("")
            continue
        if stripped.startswith("//") or stripped.startswith("*"):
            out.append("")
            continue
        out.append(re.sub(r"\s//\s.*$", "", line))
    return out


def classes(path: Path, objects: dict[str, int], lent: list) -> dict[str, dict]:
    """Class name -> {lines, methods}; fills `objects` (name -> methods of an object of
    methods) and `lent` ((class, object) pairs of Object.assign(Class.prototype, object))."""
    lines = code_lines(path)
    found: dict[str, dict] = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^(export\s+)?class\s+(\w+)", line) or re.match(
            r"^(export\s+)?const\s+(\w+)\s*=\s*\{\s*$", line
        )
        if not m:
            m2 = re.search(r"Object\.assign\((\w+)\.prototype,\s*(\w+)\)", line)
            if m2:
                lent.append((m2.group(1), m2.group(2)))
            i += 1
            continue
        name = m.group(2)
        start = i
        j = i + 1
        while j < len(lines) and not re.match(r"^[}\]]", lines[j]):
            j += 1
        body = lines[start + 1 : j]
        methods = sum(
            1
            for b in body
            if b.startswith("  ") and not b.startswith("   ") and METHOD.match(b[2:])
        )
        if line.rstrip().endswith("{") and "class" not in line:
            objects[name] = sum(
                1
                for b in body
                if b.startswith("  ")
                and not b.startswith("   ")
                and (METHOD.match(b[2:]) or re.match(r"^\w+:\s*(async\s*)?\(.*=>\s*\{?\s*$", b[2:]))
            )
        else:
            found[name] = {"lines": j - start + 1, "methods": methods, "file": path}
        i = j + 1
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=str(ROOT / "web" / "js"))
    args = parser.parse_args(argv)
    root = Path(args.root)
    files = sorted(root.rglob("*.js"))
    ui = [p for p in files if "/ui/" in str(p) or p.name == "app.js"]

    print("== classes (ui/ and app.js): lines, methods ==")
    rows = []
    objects: dict[str, int] = {}
    lent: list = []
    found = {}
    for path in ui:
        for name, c in classes(path, objects, lent).items():
            found[name] = {**c, "rel": str(path.relative_to(root))}
    for name, obj in lent:
        if name in found:
            found[name]["methods"] += objects.get(obj, 0)
            found[name]["lent"] = found[name].get("lent", 0) + objects.get(obj, 0)
    for name, c in found.items():
        rows.append((c["rel"], name, c["lines"], c["methods"], c.get("lent")))
    for rel, name, n_lines, n_methods, lent in sorted(rows):
        extra = f" ({lent} lent by Object.assign)" if lent else ""
        print(f"  {rel:34} {name:22} {n_lines:5} lines {n_methods:4} methods{extra}")

    print("\n== files over 500 lines ==")
    for path in files:
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > 500:
            print(f"  {path.relative_to(root)}: {n}")

    def scan(title: str, pattern: re.Pattern, where, strip: bool = False) -> None:
        print(f"\n== {title} ==")
        hits = []
        for path in files:
            if not where(path):
                continue
            for k, line in enumerate(code_lines(path), 1):
                text = STRING.sub('""', line) if strip else line
                if pattern.search(text):
                    hits.append(f"  {path.relative_to(root)}:{k}: {line.strip()[:90]}")
        print("\n".join(hits) or "  (none)")
        n_files = len({h.split(":")[0] for h in hits})
        print(f"  total: {len(hits)} in {n_files} files")

    scan("variant names tested (outside net/)", VARIANT_TEST, lambda p: "/net/" not in str(p))
    scan("controller kind tested (.friend, instanceof)", KIND_TEST, lambda p: True, strip=True)
    scan(
        "mode branches in ui/ctrl/game.js",
        MODE_TEST,
        lambda p: str(p).endswith("ui/ctrl/game.js"),
        strip=True,
    )

    print("\n== engine called from views (ui/view/) ==")
    calls = []
    for path in files:
        if "/ui/view/" not in str(path):
            continue
        for k, line in enumerate(code_lines(path), 1):
            if ENGINE_CALL.search(line):
                calls.append(f"  {path.relative_to(root)}:{k}: {line.strip()[:90]}")
    print("\n".join(calls) or "  (none)")
    print(f"  total: {len(calls)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
