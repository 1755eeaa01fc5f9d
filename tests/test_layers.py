"""The engine's layers (docs/architecture.md): imports run one way and close no circle.

Read from the source with `ast`, so a new import that breaks a layer fails here before
anyone has to notice it in review.  Imports under `if TYPE_CHECKING:` are for type
hints only and never run; they are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "junqi_core"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts}


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def runtime_imports(name: str) -> set[str]:
    """The package's modules `name` imports when it runs (at the top or in a function)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in MODULES else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {m for m in found if m in MODULES and m != name}


GRAPH = {name: runtime_imports(name) for name in MODULES}


def in_room(module: str, room: str) -> bool:
    return module == room or module.startswith(room + ".")


def test_the_reader_sees_every_module_and_its_imports():
    # the check below means something only if the graph is read right
    assert "junqi_core.rules" in GRAPH["junqi_core.game"]
    assert "junqi_core.ai.search" in GRAPH["junqi_core.ai.player"]
    assert "junqi_core.fair.state" in GRAPH["junqi_core.fair.step"]


def test_no_import_circle():
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def connect(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(GRAPH[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for v in sorted(GRAPH):
        if v not in index:
            connect(v)
    assert circles == []


DATA = {"junqi_core.topology", "junqi_core.pieces", "junqi_core.moves", "junqi_core.siguo.board"}


def test_boards_pieces_and_moves_are_data_that_import_only_each_other():
    assert {m: GRAPH[m] - DATA for m in DATA} == {m: set() for m in DATA}


# room -> rooms it must never import
FORBIDDEN = {
    "junqi_core.ai": [
        "junqi_core.game",
        "junqi_core.bridge",
        "junqi_core.players",
        "junqi_core.arena",
        "junqi_core.bots",
        "junqi_core.fair",
    ],
    "junqi_core.bots": ["junqi_core.ai", "junqi_core.game", "junqi_core.bridge", "junqi_core.fair"],
    "junqi_core.fair": ["junqi_core.ai", "junqi_core.bots", "junqi_core.bridge"],
}


def test_each_layer_imports_only_what_sits_below_it():
    broken = [
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        for room, banned in FORBIDDEN.items()
        if in_room(module, room)
        for target in targets
        if any(in_room(target, b) for b in banned) and not in_room(target, room)
    ]
    assert broken == []


def test_only_the_command_line_reaches_the_bridge_and_the_arena():
    """The bridge is the browser's door and the arena plays matches: nothing in the engine
    leans on either."""
    users = {
        module
        for module, targets in GRAPH.items()
        if {"junqi_core.bridge", "junqi_core.arena"} & targets
    }
    assert users <= {"junqi_core.__main__"}


VARIANT_IDS = {"classic", "blind", "gunjin", "siguo"}


def variant_checks(name: str) -> list[str]:
    """Places in `name` that ask which variant it is: a comparison with a variant's id, a
    table keyed by ids, or an isinstance test against a variant's position class."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    position_classes = {
        n.name
        for n in ast.walk(ast.parse((PACKAGE / "rules.py").read_text(encoding="utf-8")))
        if isinstance(n, ast.ClassDef) and n.name.endswith("Position") and n.name != "Position"
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            values = [node.left, *node.comparators]
            consts = [c for v in values for c in ast.walk(v) if isinstance(c, ast.Constant)]
            if any(c.value in VARIANT_IDS for c in consts):
                found.append(f"{name}:{node.lineno} compares with a variant id")
        elif isinstance(node, ast.Dict):
            if any(isinstance(k, ast.Constant) and k.value in VARIANT_IDS for k in node.keys):
                found.append(f"{name}:{node.lineno} a table keyed by variant ids")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("isinstance", "issubclass")
            and len(node.args) == 2
            and any(
                isinstance(n, ast.Name) and n.id in position_classes for n in ast.walk(node.args[1])
            )
        ):
            found.append(f"{name}:{node.lineno} tests a variant's position class")
    return found


def test_nothing_outside_the_variants_asks_which_variant_it_is():
    """The Variant (and the position class it names) states every fact a caller needs;
    code that asked for the variant by name would have to change for each new game."""
    assert variant_checks("junqi_core.variants") != []  # the reader finds what it looks for
    outside = [
        found
        for name in sorted(MODULES)
        if name != "junqi_core.variants"
        for found in variant_checks(name)
    ]
    assert outside == []
