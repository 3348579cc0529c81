"""The rooms of the project and the arrows between them (docs/architecture.md).

Every import counts: at the top of a module, inside a function, or under `if TYPE_CHECKING:`.
A module belongs to the room of the longest matching name below; a room imports only itself and the
rooms it lists. No module reaches itself through imports, and no folder holds more than 20 modules.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "dealers_chess"  # the one import package; rooms are named below it ("engine" is dealers_chess.engine)
PACKAGES = ("pieces", "engine", "cards", "printing", "cli", "assets", "compute")
ENGINE_ROOMS = ("engine", "engine.measure", "engine.dealing", "engine.session", "engine.exports", "engine.search",
                "engine.selfplay")
PRINTING_ROOMS = ("printing", "printing.cards", "printing.solids")
# room -> the other rooms it may import (lower rooms only; cli sits on top)
ALLOWED = {
    "assets": set(),
    "pieces": set(),
    "pieces.model3d": {"pieces"},
    "engine": {"pieces"},
    "engine.measure": {"engine", "pieces"},
    "engine.search": {"engine", "engine.measure", "pieces"},
    "engine.dealing": {"engine", "engine.measure", "pieces"},
    "engine.session": {"engine", "engine.measure", "engine.dealing", "engine.search", "pieces"},
    "engine.exports": {"engine", "engine.measure", "engine.dealing", "pieces"},
    "engine.selfplay": {"engine", "engine.measure", "engine.search", "pieces"},
    "compute": {*ENGINE_ROOMS, "pieces"},  # the one room that talks to Ray
    "cards": {"pieces"},
    "printing": {"cards", "pieces", "pieces.model3d", *ENGINE_ROOMS},
    "printing.cards": {"printing", "cards", "pieces", "pieces.model3d", *ENGINE_ROOMS},
    "printing.solids": {"printing", "pieces", "pieces.model3d", *ENGINE_ROOMS},
    "printing.kit": {*PRINTING_ROOMS, "cards", "pieces", "pieces.model3d", *ENGINE_ROOMS},
    "cli.terminal": {"pieces", "pieces.model3d", "cards", *PRINTING_ROOMS, *ENGINE_ROOMS},
    "cli.web": {"pieces", "pieces.model3d", "cards", *PRINTING_ROOMS, *ENGINE_ROOMS},
    "cli.common": {"pieces", *ENGINE_ROOMS},
    "__main__": {"cli"},
    "cli": {"cli.common", "cli.terminal", "cli.web", "pieces", "pieces.model3d",
                   "cards", "printing.kit", *PRINTING_ROOMS, *ENGINE_ROOMS, "compute"},
}
# the rules core reads bottom-up: each module imports only those before it
CORE_LAYERS = ["errors", "board", "move", "rng", "kernel", "game", "position", "attacks", "origins", "castling", "dead",
               "rules", "state_fields", "notation", "record", "setup", "perft"]
MAX_MODULES_PER_FOLDER = 20


def project_modules() -> dict[str, Path]:
    """Every module of the project's packages by dotted name (a package by its own name)."""
    modules = {"__main__": ROOT / PACKAGE / "__main__.py"}
    for package in PACKAGES:
        for path in (ROOT / PACKAGE / package).rglob("*.py"):
            name = ".".join(path.relative_to(ROOT / PACKAGE).with_suffix("").parts)
            modules[name.removesuffix(".__init__")] = path
    return modules


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules `name` imports, anywhere in its text (a `from package import module` names the module)."""
    found = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        else:
            continue
        for target in (target.removeprefix(f"{PACKAGE}.") for target in targets):
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    """module -> the project modules it imports."""
    modules = project_modules()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def room_of(module: str) -> str:
    """The room a module lives in: the longest room name it starts with."""
    rooms = [room for room in ALLOWED if module == room or module.startswith(room + ".")]
    return max(rooms, key=len)


def wrong_way_imports(graph: dict[str, set[str]]) -> list[str]:
    """'a -> b (room A may not import room B)' for every import that crosses the rooms the wrong way."""
    wrong = []
    for module, targets in sorted(graph.items()):
        room = room_of(module)
        for target in sorted(targets):
            other = room_of(target)
            if other != room and other not in ALLOWED[room]:
                wrong.append(f"{module} -> {target} (room {room} may not import room {other})")
    return wrong


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that reach each other through imports (strongly connected, more than one)."""
    order, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        on_stack.add(module)
        for target in graph.get(module, ()):
            if target not in order:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], order[target])
        if low[module] == order[module]:
            group = []
            while not group or group[-1] != module:
                group.append(stack.pop())
                on_stack.discard(group[-1])
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return found


def test_every_import_goes_from_a_higher_room_to_a_lower_one():
    assert wrong_way_imports(import_graph()) == []


def test_no_module_imports_itself_through_others():
    assert circles(import_graph()) == []


def test_command_modules_share_only_the_helpers_module():
    graph = import_graph()
    commands = {name for name in graph if room_of(name) == "cli"}
    shared = {target for name in commands for target in graph[name] & commands}
    assert shared <= {"cli.common"}, f"a command module imports another: {sorted(shared)}"


def test_each_core_module_imports_only_the_layers_below_it():
    graph = import_graph()
    for index, layer in enumerate(CORE_LAYERS):
        above = {target for target in graph[f"engine.{layer}"] if target.removeprefix("engine.") in CORE_LAYERS[index:]}
        assert not above, f"engine/{layer}.py imports {sorted(above)}, which sit above it in {CORE_LAYERS}"


def test_every_core_module_has_its_layer():
    core = {name.removeprefix("engine.") for name in project_modules()
            if room_of(name) == "engine" and name != "engine"}
    assert core == set(CORE_LAYERS)


def test_no_folder_holds_more_than_twenty_modules():
    folders: dict[Path, int] = {}
    for path in ROOT.rglob("*.py"):
        if not {".venv", "build", ".git"} & set(path.relative_to(ROOT).parts):
            folders[path.parent] = folders.get(path.parent, 0) + 1
    crowded = {str(folder.relative_to(ROOT)): count for folder, count in folders.items()
               if count > MAX_MODULES_PER_FOLDER}
    assert crowded == {}


def test_the_checks_catch_a_wrong_way_import_and_a_circle():
    graph = import_graph()
    graph["engine.rules"] = graph["engine.rules"] | {"engine.session.session"}
    graph["pieces.catalogue"] = graph["pieces.catalogue"] | {"engine.board"}
    wrong = wrong_way_imports(graph)
    assert "engine.rules -> engine.session.session (room engine may not import room engine.session)" in wrong
    assert "pieces.catalogue -> engine.board (room pieces may not import room engine)" in wrong
    assert any("engine.rules" in group and "engine.session.session" in group for group in circles(graph))


def test_function_level_imports_are_counted(tmp_path):
    module = tmp_path / "late.py"
    module.write_text("def f():\n    from dealers_chess.engine.rules import play\n"
                      "    import dealers_chess.printing.files\n")
    modules = project_modules()
    assert imports_of("engine.late", module, modules) == {"engine.rules", "printing.files"}
