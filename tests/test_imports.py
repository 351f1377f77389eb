"""The layers' imports: no import cycles outside ``TYPE_CHECKING``, and the boundaries the architecture
names (the pure games import nothing above them; the board does not reach into the MQTT edge; the web uses
the decks and the board through their public surfaces; benches do not import the tests).

The graph is read from the source with :mod:`ast` (every ``import`` and ``from ... import``, including
those inside functions; only ``if TYPE_CHECKING:`` blocks are left out), module by module.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("appliance", "web", "firmware", "bench")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_files() -> dict[str, Path]:
    files: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "__pycache__" not in path.parts:
                files[module_name(path)] = path
    return files


MODULES = source_files()


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _type_checking(node):
            yield from (n for child in node.orelse for n in _imports_of(child))
            continue
        yield from _imports_of(node)


def _imports_of(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node
    elif not (isinstance(node, ast.If) and _type_checking(node)):
        yield from _imports(node)


def _known(name: str) -> str | None:
    """The longest prefix of ``name`` that is one of our modules."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in MODULES:
            return candidate
        parts.pop()
    return None


def imports_of(module: str) -> set[str]:
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in _imports(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [f"{base}.{alias.name}" for alias in node.names] or [base]
        for target in targets:
            known = _known(target)
            if known is not None and known != module:
                found.add(known)
    return found


GRAPH = {module: imports_of(module) for module in MODULES}


def cycles() -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(GRAPH[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(GRAPH):
        if module not in index:
            visit(module)
    return found


def test_the_walk_sees_the_known_edges() -> None:
    assert "appliance.games.base" in GRAPH["appliance.games.registry"]
    assert "appliance.flows.confident" in GRAPH["appliance.flows"]
    assert "appliance.board" in GRAPH["web.mirror"]  # an import inside a function counts
    assert "appliance.games.buzzer.engine" not in GRAPH["appliance.games.buzzer.views"]  # TYPE_CHECKING only
    assert len(GRAPH) > 150


def test_there_are_no_import_cycles_outside_type_checking() -> None:
    assert cycles() == []


def _reaches(module: str, forbidden: tuple[str, ...]) -> list[str]:
    return sorted(t for t in GRAPH[module] if t.startswith(forbidden))


PURE_GAMES_MAY_NOT = ("appliance.decks", "appliance.session", "appliance.flows", "appliance.board", "appliance.edge",
                      "appliance.box", "appliance.hardware", "web", "firmware", "bench")


@pytest.mark.parametrize(
    ("layer", "forbidden"),
    [
        ("appliance.games", PURE_GAMES_MAY_NOT),
        ("appliance.board", ("appliance.edge", "appliance.session", "appliance.box", "web")),
        ("appliance.session.flow", ("appliance.flows", "appliance.session.session")),
        ("bench", ("tests",)),
        ("web", ("appliance.decks.io", "appliance.decks.validate", "appliance.decks.fields",
                 "appliance.board.")),
        # issue 29's middle floor: the store and the config are the floor below every user of them
        ("appliance.infra", ("appliance.box", "appliance.edge", "appliance.session", "appliance.flows",
                             "appliance.decks", "appliance.board", "appliance.games", "web")),
        ("appliance.edge", ("appliance.box",)),
        ("appliance.session", ("appliance.box", "appliance.flows")),  # the flow lookup is passed in
        ("appliance.decks", ("appliance.box", "appliance.session", "appliance.edge", "appliance.flows")),
        # refusal codes travel on the exceptions: the edge's table of them imports no game
        ("appliance.edge.refusals", ("appliance.games", "appliance.session", "appliance.infra")),
        # the admin commands and liveness reach the hub through a narrow interface, not the class
        ("appliance.edge.commands", ("appliance.edge.hub",)),
        ("appliance.edge.liveness", ("appliance.edge.hub",)),
        ("appliance.edge.night_commands", ("appliance.edge.hub",)),
    ],
)
def test_layers_keep_their_boundaries(layer: str, forbidden: tuple[str, ...]) -> None:
    crossing = {m: _reaches(m, forbidden) for m in GRAPH if m == layer or m.startswith(layer + ".")}
    assert {m: t for m, t in crossing.items() if t} == {}


def test_bench_does_not_import_the_tests() -> None:
    for path in (ROOT / "bench").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        names += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        assert not [n for n in names if n == "tests" or n.startswith("tests.")], path


def test_no_module_reaches_into_the_hubs_private_fields() -> None:
    """Issue 29: commands.py and liveness.py wrote the hub's private fields and called its private methods."""
    import re

    private = re.compile(r"\bhub\._[a-z]")
    files = [path for package in ("appliance", "web") for path in (ROOT / package).rglob("*.py")]
    found = [f"{path.relative_to(ROOT)}:{n}" for path in files
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if private.search(line)]
    assert found == []


def test_only_the_edge_reads_admin_commands() -> None:
    """Issue 29: the night's admin commands were parsed in the session, every other one in the edge."""
    readers = sorted(m for m, targets in GRAPH.items() if "appliance.edge.night_commands" in targets)
    assert readers == ["appliance.edge.commands"]
