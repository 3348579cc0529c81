"""The engine reads bottom-up: each module imports only modules below it, lazily or not (no circles)."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[1] / "engine"
# bottom to top; a module may import only those before it
LAYERS = ["errors", "board", "move", "rng", "kernel", "game", "position", "attacks", "castling", "rules", "notation"]


def engine_imports(module: str) -> set[str]:
    """Every engine module `module` imports when it runs, at the top or inside a function."""
    tree = ast.parse((ENGINE / f"{module}.py").read_text())
    hints_only = {id(inner) for node in ast.walk(tree)  # `if TYPE_CHECKING:` imports never run
                  if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING"
                  for inner in ast.walk(node)}
    return {node.module.removeprefix("engine.") for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and id(node) not in hints_only
            and node.module and node.module.startswith("engine.")}


def test_each_core_module_imports_only_the_layers_below_it():
    for index, module in enumerate(LAYERS):
        above = engine_imports(module) & set(LAYERS[index:])
        assert not above, f"engine/{module}.py imports {sorted(above)}, which sit above it in {LAYERS}"


def test_no_engine_module_imports_in_a_circle():
    graph = {path.stem: engine_imports(path.stem) for path in ENGINE.glob("*.py")}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, ()):
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    circles = sorted(module for module in graph if reaches(module, module, set()))
    assert circles == []
