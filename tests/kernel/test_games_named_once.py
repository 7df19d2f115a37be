"""Nothing but the registry and a game's own package names a game (issue 41, item 5): the kernel's
registry lists the games, each game's hooks for the bots and the field's adapters live beside it
(``core/<game>/bots.py``), and the kernel, the store, the replays, the workflows, the CLI, the server
and ``ai/`` read every game through the registry. So no module of theirs holds a game's id or package
name as a literal (no ``if gid == "solari"``, no table keyed by game ids) or imports a game's package.
"""

from __future__ import annotations

import ast
from pathlib import Path

from solrec.core.registry import GAMES

from ..conftest import ROOT

# The packages that may not name a game, as folders under the repository; and the kernel's own modules
# (core/*.py), but for the registry, whose table is where games are named.
PACKAGES = ("ai", "server", "cli", "replay", "workflows", "events")
NAMER = ROOT / "core" / "registry.py"
GAME_PACKAGES = {module.partition(".")[0] for module, _ in GAMES.values()}
NAMES = set(GAMES) | GAME_PACKAGES


def sources() -> list[Path]:
    found = [p for folder in PACKAGES for p in sorted((ROOT / folder).rglob("*.py"))]
    return found + [p for p in sorted((ROOT / "core").glob("*.py")) if p != NAMER]


def namings(source: str) -> list[tuple[int, str]]:
    """Where a module names a game: a string that is a game's id or package name (a branch, a key, an
    argument), or an import of a game's package."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in NAMES:
            out.append((node.lineno, repr(node.value)))
        elif isinstance(node, ast.Import):
            out.extend((node.lineno, a.name) for a in node.names if set(a.name.split(".")) & GAME_PACKAGES)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            names = {*module.split("."), *(a.name for a in node.names)}
            if names & GAME_PACKAGES:
                out.append((node.lineno, f"from {'.' * node.level}{module} import ..."))
    return sorted(out)


def test_no_module_outside_a_games_package_names_a_game():
    found = [f"{p.relative_to(ROOT)}:{line}: {what}" for p in sources()
             for line, what in namings(p.read_text(encoding="utf-8"))]
    assert found == [], "games named outside their packages:\n" + "\n".join(found)


def test_a_branch_on_a_game_id_is_found():
    source = 'def f(gid):\n    if gid == "solari":\n        return 1\n'
    assert namings(source) == [(2, "'solari'")]


def test_a_table_keyed_by_game_ids_and_an_import_of_a_game_are_found():
    source = 'SCALE = {"soli2": 4.0}\nfrom solrec.core.solar_solitaire import solver\nfrom ..core import solo_dice\n'
    assert [line for line, _ in namings(source)] == [1, 2, 3]


def test_a_game_named_inside_a_text_is_not_a_branch():
    assert namings('HELP = "e.g. solrec new solari"\n') == []
