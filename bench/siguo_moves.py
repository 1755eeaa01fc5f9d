"""Siguo's move generation against Classic's, in one run (the issue's aim: a Siguo position
costs at most 3x a Classic one).

Run: python bench/siguo_moves.py [--seconds S] [--positions N] [--pyodide]

Both sides are timed on mid-game positions of seeded random games (Classic: 60 plies;
Siguo: 120 plies, the same 30 turns per seat), interleaved so that a busy machine slows
both alike.  Prints legal-move generations per second, push/pop pairs per second, and the
ratio of Siguo's cost per position to Classic's.  `--pyodide` runs the same code in the
page's Python (the npm package's Pyodide, in Node: the same WebAssembly as the browser's),
after `npm ci`.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from siguo_games import random_game as siguo_game  # noqa: E402

from junqi_core.game import PLAY  # noqa: E402
from junqi_core.rules import Position  # noqa: E402
from junqi_core.selfplay import random_game  # noqa: E402


def classic_positions(n: int) -> list[Position]:
    found, seed = [], 1
    while len(found) < n:
        game = random_game("classic", seed, max_plies=60)
        if game.phase == PLAY:
            found.append(game.position.copy())
        seed += 1
    return found


def siguo_positions(n: int) -> list[Position]:
    found, seed = [], 1
    while len(found) < n:
        last = None
        for ply, (position, _move) in enumerate(siguo_game(seed, 121)):
            if ply == 120:
                last = position.copy()
        if last is not None and len(last.in_game()) == 4:
            found.append(last)
        seed += 1
    return found


def per_second(positions: list[Position], seconds: float) -> tuple[float, float]:
    """(generations/s, push+pop pairs/s) over the positions in turn."""
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for position in positions:
            position.legal_moves()
            count += 1
    generations = count / (time.perf_counter() - start)
    pairs, start = 0, time.perf_counter()
    moves = [(p, p.legal_moves()) for p in positions]
    while time.perf_counter() - start < seconds:
        for position, legal in moves:
            for move in legal:
                position.push(move)
                position.pop()
            pairs += len(legal)
    return generations, pairs / (time.perf_counter() - start)


# Loads Pyodide in Node, copies the engine and this bench into its file system, runs it.
_NODE = """
const [pyodideDir, filesPath, argsJson] = process.argv.slice(1);
const { readFileSync } = require("node:fs");
const { pathToFileURL } = require("node:url");
(async () => {
  const { loadPyodide } = await import(pathToFileURL(pyodideDir + "/pyodide.mjs").href);
  const py = await loadPyodide({ indexURL: pyodideDir + "/", stdout: console.log });
  const files = JSON.parse(readFileSync(filesPath, "utf-8"));
  for (const [name, text] of Object.entries(files)) {
    py.FS.mkdirTree("/bench/" + name.split("/").slice(0, -1).join("/"));
    py.FS.writeFile("/bench/" + name, text);
  }
  py.globals.set("argv", JSON.parse(argsJson));
  py.runPython(`
import sys
sys.path[:0] = ["/bench", "/bench/tests"]
sys.argv = ["siguo_moves.py", *argv]
import runpy
runpy.run_path("/bench/bench/siguo_moves.py", run_name="__main__")
`);
})().catch((err) => { console.error(err); process.exit(1); });
"""


def in_pyodide(argv: list[str]) -> None:
    pyodide = ROOT / "node_modules" / "pyodide"
    node = shutil.which("node")
    if node is None or not (pyodide / "pyodide.mjs").exists():
        raise SystemExit("--pyodide needs node and node_modules/pyodide (npm ci)")
    names = [*ROOT.glob("junqi_core/**/*.py"), ROOT / "tests" / "siguo_games.py", Path(__file__)]
    files = {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in names}
    listing = ROOT / "build" / "bench-files.json"
    listing.parent.mkdir(exist_ok=True)
    listing.write_text(json.dumps(files), encoding="utf-8")
    subprocess.run([node, "-e", _NODE, str(pyodide), str(listing), json.dumps(argv)], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pyodide", action="store_true", help="run in Pyodide (Node)")
    args = parser.parse_args()
    if args.pyodide:
        rest = [a for a in sys.argv[1:] if a != "--pyodide"]
        return in_pyodide(rest)
    print(f"Python {sys.version.split()[0]} ({sys.platform})")
    sides = {"classic": classic_positions(args.positions), "siguo": siguo_positions(args.positions)}
    for name, positions in sides.items():
        moves = sum(len(p.legal_moves()) for p in positions) / len(positions)
        pieces = sum(1 for p in positions for x in p.board if x) / len(positions)
        print(f"{name:<8} {len(positions)} positions, {moves:.1f} moves, {pieces:.0f} pieces each")
    print(f"{'round':<6} {'classic gen/s':>14} {'siguo gen/s':>12} {'ratio':>6} "
          f"{'classic push/s':>15} {'siguo push/s':>13}")  # fmt: skip
    ratios = []
    for round_ in range(args.rounds):
        classic = per_second(sides["classic"], args.seconds)
        siguo = per_second(sides["siguo"], args.seconds)
        ratios.append(classic[0] / siguo[0])
        print(f"{round_ + 1:<6} {classic[0]:>14,.0f} {siguo[0]:>12,.0f} {ratios[-1]:>6.2f} "
              f"{classic[1]:>15,.0f} {siguo[1]:>13,.0f}")  # fmt: skip
    print(
        f"Siguo's cost per generation: {sorted(ratios)[len(ratios) // 2]:.2f}x Classic's "
        "(median of the rounds; the aim is at most 3x)"
    )


if __name__ == "__main__":
    main()
