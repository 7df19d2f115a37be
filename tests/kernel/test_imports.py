"""One way through the code: read by their imports, the modules of a package form no circle, so a
reader can start at the bottom of each package and read up (issue 20, "One way through the code").

Every import counts, the ones inside functions too: a function-level import is still the module
needing the other one. Only the imports a module writes count, not the package ``__init__`` Python
runs first (that is how packages load, not a dependency the module chose).
"""

from __future__ import annotations

import ast
from pathlib import Path

from ..conftest import ROOT

# The top-level folders, as they install (pyproject.toml: package-dir).
FOLDERS = ("core", "events", "replay", "cli", "ai", "server", "workflows")
# The packages whose modules must lie on no import circle, as folders under the repository: all of them.
CHECKED = FOLDERS
UNCHECKED: tuple[str, ...] = ()
# The one circle left, known and named: Solarius Mission's game.py and observation.py word each event
# alike (issue 41, item 2: one wording module per game takes it away; then this goes too).
KNOWN = ({"solrec.core.solarius_mission.game", "solrec.core.solarius_mission.observation"},)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(("solrec", *parts))


def modules() -> dict[str, Path]:
    return {module_name(p): p for folder in FOLDERS for p in sorted((ROOT / folder).rglob("*.py"))}


def imports_of(name: str, source: str, known: set[str], is_package: bool = False) -> set[str]:
    """The modules among ``known`` that the module ``name`` (``is_package``: a package's
    ``__init__``) imports, anywhere in its source."""
    package = name if is_package else name.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                frm = ".".join([*base, *([node.module] if node.module else [])])
            else:
                frm = node.module or ""
            for alias in node.names:
                sub = f"{frm}.{alias.name}"
                out.add(sub if sub in known else frm)  # a submodule, or a name the module defines
    return {m for m in out if m in known and m != name}


def import_graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    graph = {}
    for name, path in found.items():
        graph[name] = imports_of(name, path.read_text(encoding="utf-8"), known, path.name == "__init__.py")
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def checked(name: str) -> bool:
    """Is the module in one of the CHECKED packages (or one below it), and in none UNCHECKED?"""
    def under(packages: tuple[str, ...]) -> bool:
        return any(f"{name}.".startswith(f"solrec.{p.replace('/', '.')}.") for p in packages)

    return under(CHECKED) and not under(UNCHECKED)


def test_the_checked_packages_hold_no_import_circle():
    found = [c for c in circles(import_graph()) if any(checked(m) for m in c) and set(c) not in KNOWN]
    assert found == [], "import circles: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_bots_their_search_and_the_action_numbering_read_one_way():
    """ai/ once held two circles (actions, mission and table; bots and search): the contract, the
    numbering and what a seat may use are modules of their own that read neither the kinds nor the
    search."""
    graph = import_graph()
    assert "solrec.ai.bots" not in graph["solrec.ai.search"]
    assert "solrec.ai.search" in graph["solrec.ai.bots"]
    for module in ("solrec.ai.contract", "solrec.ai.seat", "solrec.ai.table"):
        assert not graph[module] & {"solrec.ai.bots", "solrec.ai.search"}, module
    assert all(not m.startswith("solrec.ai.") for m in graph["solrec.core.actions"] | graph["solrec.core.bots"])


def test_an_import_inside_a_function_counts():
    known = {"solrec.replay.log", "solrec.replay.other"}
    source = "def f():\n    from .other import g\n    return g()\n"
    assert imports_of("solrec.replay.log", source, known) == {"solrec.replay.other"}


def test_a_circle_through_a_function_level_import_is_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]


def test_the_graph_sees_the_modules_each_package_reads_up_from():
    graph = import_graph()
    assert "solrec.core.solar_solitaire.piles" in graph["solrec.core.solar_solitaire.proof"]
    assert "solrec.core.solar_solitaire.proof" in graph["solrec.core.solar_solitaire.solver"]
    assert "solrec.replay.log" in graph["solrec.replay.diff"]
    assert "solrec.ai.contract" in graph["solrec.ai.search"]
    assert "solrec.core.solarius_mission.rules" in graph["solrec.core.solarius_mission.legal"]
