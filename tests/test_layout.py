"""The house in rooms (DESIGN.md): no file of bot/, engine/ or render/ past 600 lines, no class past 300, and no
import cycle among their modules at import time."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ROOMS = ("bot", "engine", "render")
MAX_FILE, MAX_CLASS = 600, 300


def modules() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the rooms (a package by its __init__.py)."""
    found = {}
    for room in ROOMS:
        for path in (ROOT / room).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def run_at_import(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The imports a module runs when it is imported: not those in functions or under `if TYPE_CHECKING:`."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If):
            if "TYPE_CHECKING" not in ast.unparse(node.test):
                yield from run_at_import(node.body)
            yield from run_at_import(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody, *(h.body for h in node.handlers)):
                yield from run_at_import(block)


def imported(node: ast.Import | ast.ImportFrom, name: str, package: bool) -> list[str]:
    """The dotted names an import statement of module `name` reaches, and the packages above each of them."""
    if isinstance(node, ast.Import):
        targets = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            here = name.split(".") if package else name.split(".")[:-1]
            base = ".".join(here[:len(here) - node.level + 1] + ([base] if base else []))
        targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
    reached = []
    for target in targets:
        parts = target.split(".")
        reached += [".".join(parts[:i]) for i in range(1, len(parts) + 1)]
    return reached


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of the rooms it imports when it is imported (its own packages left out)."""
    found = modules()
    graph: dict[str, set[str]] = {}
    for name, path in found.items():
        package = path.name == "__init__.py"
        parts = name.split(".")
        own = {".".join(parts[:i]) for i in range(1, len(parts) + (1 if package else 0))}
        graph[name] = {target for node in run_at_import(ast.parse(path.read_text()).body)
                       for target in imported(node, name, package)
                       if target in found and target != name and target not in own}
    return graph


def test_no_module_imports_itself_back_at_import_time() -> None:
    """A module never imports, when it is imported, a module that imports it back, directly or through others."""
    try:
        TopologicalSorter(import_graph()).prepare()
    except CycleError as cycle:
        pytest.fail(f"import cycle: {' -> '.join(cycle.args[1])}")


def test_the_graph_holds_the_imports_run_at_import_time() -> None:
    """The check reads real imports: the table's package imports its rooms and the store; the buttons' import of
    the client, made for type checking only, is not one."""
    graph = import_graph()
    assert {"bot.store", "bot.table.lobby", "engine.core"} <= graph["bot.table"]
    assert "bot.discord_app.client" not in graph["bot.discord_app.views"]
    with pytest.raises(CycleError):
        TopologicalSorter(graph | {"engine.core": {"bot.table"}}).prepare()


def test_every_file_and_class_fits_in_its_room() -> None:
    """No file past 600 lines and no class past 300: a room that grows is split along its seams."""
    too_big = []
    for path in modules().values():
        text = path.read_text()
        if text.count("\n") > MAX_FILE:
            too_big.append(f"{path.relative_to(ROOT)}: {text.count(chr(10))} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef) and (node.end_lineno or 0) - node.lineno + 1 > MAX_CLASS:
                too_big.append(f"{path.relative_to(ROOT)}: class {node.name}")
    assert too_big == []
